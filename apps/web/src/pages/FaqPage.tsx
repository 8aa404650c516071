import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui/PageHeader';
import { FaqHelpCentre } from '../features/help/FaqHelpCentre';

export function FaqPage() {
  useDocumentTitle('FAQs');
  return (
    <div className="crp-page crp-page-wide">
      <PageHeader title="FAQs" subtitle="Answers about our risk metrics, hazard models, data, uploads and your account." />
      <FaqHelpCentre />
    </div>
  );
}
