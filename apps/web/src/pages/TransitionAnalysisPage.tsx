import { useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { NeedsStateCard } from '../ui/NeedsStateCard';
import { PageHeader } from '../ui/PageHeader';
import { TransitionAnalysisView } from '../features/carbon/CarbonProjectViews';
import { carbonNameFromState } from '../features/carbon/useCarbon';

/** /transition-analysis: needs navigation state with the carbon project name (spec 001 §2.4). */
export function TransitionAnalysisPage() {
  const name = carbonNameFromState(useLocation().state);
  useDocumentTitle(name ? `Transition analysis · ${name}` : 'Transition analysis');
  return (
    <div className="crp-page">
      <PageHeader title={name ?? 'Transition analysis'} subtitle="Carbon analysis output: financed emissions, footprint, intensity and WACI." />
      {name ? <TransitionAnalysisView name={name} /> : <NeedsStateCard description="Open a transition project from the project list." />}
    </div>
  );
}
