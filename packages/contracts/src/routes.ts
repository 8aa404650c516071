/** Routes of the web app (spec 000 §2, spec 001 §2). Public routes need no sign-in. */
export const PUBLIC_ROUTES = ['/', '/login', '/register', '/forgot-password', '/reset-password'] as const;

export const SIGNED_IN_ROUTES = [
  '/location',
  '/setup',
  '/data',
  '/project',
  '/dashboard',
  '/company-dashboard',
  '/map',
  '/realestate',
  '/realestate-dashboard',
  '/property-risk',
  '/pivottable',
  '/tcfd',
  '/changelog',
  '/transition',
  '/transition-analysis',
  '/edit-transition',
  '/toolkit',
  '/faq',
  '/methodology',
  '/create-map',
] as const;

/** Local storage keys (spec 000 §3, spec 001 §3.13). */
export const STORAGE_KEYS = {
  token: 'token',
  userId: 'user_id',
  tierData: 'tier_data',
  variables: 'variables',
  withContent: 'with_content',
  distance: 'distance',
  theme: 'dark_theme',
} as const;

/** Browser event fired when tier data changes (spec 000 §2 sidebar). */
export const TIER_DATA_UPDATED_EVENT = 'tier-data-updated';

/** Last-accessed ping interval (spec 000 §9). */
export const LAST_ACCESSED_PING_MS = 300_000;

export const SIDEBAR_WIDTH_PX = 285;
export const SIDEBAR_COLLAPSED_WIDTH_PX = 102;
