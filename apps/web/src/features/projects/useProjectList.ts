import { useQuery } from '@tanstack/react-query';
import { fetchAllProjects, fetchProjectList, type MapProjectName } from '../../api/projects';
import { queryKeys } from '../../api/queryKeys';
import { readUserId } from '../../lib/storage';

/** The physical project list; polls every 3 s while an analysis is queued or running so cards show live progress. */
export function useProjectList() {
  const userId = readUserId();
  return useQuery({
    queryKey: queryKeys.projectList(userId ?? 0),
    queryFn: () => fetchProjectList(userId!),
    enabled: userId !== null,
    refetchInterval: (q) => (q.state.data?.data.some((p) => p.status === 'queued' || p.status === 'running') ? 3000 : false),
  });
}

export function useMapProjects(enabled: boolean) {
  return useQuery({ queryKey: queryKeys.projectNames('map_module'), queryFn: () => fetchAllProjects<MapProjectName>('map_module'), enabled });
}
