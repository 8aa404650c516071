/** TanStack Query keys, one place so invalidations match their queries. */
export const queryKeys = {
  currentUser: ['accounts', 'user'] as const,
  permissions: (userId: number) => ['user', 'permissions', userId] as const,
  companyMembers: ['company', 'members'] as const,
  projectList: (userId: number) => ['projects', 'list', userId] as const,
  projectNames: (listFor: 'physical_risk' | 'map_module') => ['projects', 'names', listFor] as const,
  projects: ['projects'] as const,
  companySearch: (term: string) => ['companies', 'search', term] as const,
  indices: (userId: number) => ['companies', 'indices', userId] as const,
  carbonList: (userId: number) => ['carbon', 'list', userId] as const,
  carbonAnalysis: (name: string) => ['carbon', 'analysis', name.toLowerCase()] as const,
  carbonData: (name: string) => ['carbon', 'data', name.toLowerCase()] as const,
  carbon: ['carbon'] as const,
  propertyRiskProjects: ['property-risk', 'projects'] as const,
  propertyRisk: (projectName: string) => ['property-risk', projectName.toLowerCase()] as const,
};
