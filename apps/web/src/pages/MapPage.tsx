import { useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui/PageHeader';
import { NeedsStateCard } from '../ui/NeedsStateCard';
import { MapResultsView } from '../features/maps/MapResultsView';

/** /map (spec 000 §2: target after creating a map project, carrying the map name). */
export function MapPage() {
  const location = useLocation();
  const name = (location.state as { name?: string } | null)?.name ?? new URLSearchParams(location.search).get('name') ?? '';
  useDocumentTitle(name ? `Map: ${name}` : 'Map');
  return (
    <div className="crp-page crp-page-wide">
      <PageHeader title={name || 'Map'} subtitle="Hazard map of one location: click the map for the values at a point." />
      {name ? <MapResultsView name={name} /> : <NeedsStateCard description="Open a map from the Maps tab of your projects, or create one." />}
    </div>
  );
}
