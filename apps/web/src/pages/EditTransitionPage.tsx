import { useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { NeedsStateCard } from '../ui/NeedsStateCard';
import { PageHeader } from '../ui/PageHeader';
import { EditTransitionView } from '../features/carbon/CarbonProjectViews';
import { carbonNameFromState } from '../features/carbon/useCarbon';

/** /edit-transition: opened from a transition project card with the project name in state (spec 000 §2). */
export function EditTransitionPage() {
  const name = carbonNameFromState(useLocation().state);
  useDocumentTitle(name ? `Edit transition · ${name}` : 'Edit transition project');
  return (
    <div className="crp-page">
      <PageHeader
        title={name ?? 'Edit transition project'}
        subtitle="Edit the company inputs in place; the outputs and portfolio totals are re-computed on save."
      />
      {name ? <EditTransitionView name={name} /> : <NeedsStateCard description="Open a transition project from the project list." />}
    </div>
  );
}
