import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui/PageHeader';
import { CarbonModule } from '../features/carbon/CarbonModule';

/** /transition: create a carbon analysis of a financial portfolio (spec 001 §2.4). */
export function TransitionPage() {
  useDocumentTitle('Transition Risk');
  return (
    <div className="crp-page">
      <PageHeader title="Transition Risk" subtitle="Financed emissions, carbon footprint and carbon intensity of a financial portfolio (PCAF / TCFD)." />
      <CarbonModule />
    </div>
  );
}
