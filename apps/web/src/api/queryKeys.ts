/** TanStack Query keys, one place so invalidations match their queries. */
export const queryKeys = {
  currentUser: ['accounts', 'user'] as const,
  permissions: (userId: number) => ['user', 'permissions', userId] as const,
  companyMembers: ['company', 'members'] as const,
  projectList: (userId: number) => ['projects', 'list', userId] as const,
  projectNames: (listFor: 'physical_risk' | 'map_module') => ['projects', 'names', listFor] as const,
  projects: ['projects'] as const,
  mapProjects: ['projects', 'maps'] as const,
  mapResponse: (name: string) => ['maps', 'generate', name] as const,
  mapDatasets: (lat: number, lng: number) => ['maps', 'datasets', lat, lng] as const,
};
