import { Alert, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useLocation, useParams } from 'react-router-dom';
import { fetchMapProjects } from '../api/maps';
import { firstErrorMessage } from '../api/http';
import { queryKeys } from '../api/queryKeys';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui/PageHeader';
import { NeedsStateCard } from '../ui/NeedsStateCard';
import { MapResultsView } from '../features/maps/MapResultsView';

/** The map id of the URL: /map/:id, or /map?map=:id (docs/maps.md "Map ids in the URL"); null when absent or not a number. */
export function mapIdOf(param: string | undefined, search: string): number | null {
  const raw = param ?? new URLSearchParams(search).get('map');
  if (!raw || !/^\d{1,9}$/.test(raw)) return null;
  return Number(raw);
}

/**
 * /map/:id (spec 000 §2: target after creating a map project). The id is the map project's id, so a reload or a
 * shared link opens the same map; /map?map=:id is read the same way, and the older /map with the name in the
 * navigation state or ?name= still works.
 */
export function MapPage() {
  const location = useLocation();
  const params = useParams();
  const id = mapIdOf(params.id, location.search);
  const legacyName = (location.state as { name?: string } | null)?.name ?? new URLSearchParams(location.search).get('name') ?? '';
  const maps = useQuery({ queryKey: queryKeys.mapProjects, queryFn: fetchMapProjects, enabled: id !== null });
  const found = id !== null ? maps.data?.find((m) => m.project_id === id) : undefined;
  const name = id !== null ? (found?.name ?? '') : legacyName;
  useDocumentTitle(name ? `Map: ${name}` : 'Map');

  let body: React.ReactNode;
  if (id !== null && maps.isPending) body = <Skeleton active />;
  else if (id !== null && maps.isError)
    body = <Alert type="error" showIcon title="Your maps could not be loaded" description={firstErrorMessage(maps.error, 'Try again in a moment.')} />;
  else if (id !== null && !found)
    body = <NeedsStateCard description={`There is no map ${id} among the maps you can open. Open a map from the Maps tab of your projects, or create one.`} />;
  else if (!name) body = <NeedsStateCard description="Open a map from the Maps tab of your projects, or create one." />;
  else body = <MapResultsView name={name} />;

  return (
    <div className="crp-page crp-page-wide">
      <PageHeader title={name || 'Map'} subtitle="Hazard map of one location: click the map for the values at a point." />
      {body}
    </div>
  );
}
