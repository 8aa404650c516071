import { useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { NeedsStateCard } from '../ui/NeedsStateCard';
import { PageHeader } from '../ui/PageHeader';
import { PropertyRiskView } from '../features/realestate/PropertyRiskView';
import { projectNameOf } from '../features/realestate/usePropertyRisk';
import '../features/realestate/realestate.css';

/** Property Risk Analysis (/property-risk): needs navigation state with a project name (spec 001 §2.5). */
export function PropertyRiskPage() {
  useDocumentTitle('Property Risk Analysis');
  const name = projectNameOf(useLocation().state);
  return (
    <div className="crp-page crp-page-wide">
      <PageHeader title="Property Risk Analysis" subtitle={name ? `Project: ${name}` : undefined} />
      {name ? <PropertyRiskView projectName={name} /> : <NeedsStateCard description="Open a property-risk project to see its analysis." />}
    </div>
  );
}
