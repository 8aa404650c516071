/** The product palette, shared by the web app and the server-made reports. */
export const BRAND_PALETTE = {
  navy: '#0c2233',
  navyDeep: '#081826',
  ink: '#0f1f2c',
  teal: '#0e7c7b',
  tealBright: '#2dd4bf',
  amber: '#f59e0b',
  red: '#dc2626',
  green: '#16a34a',
  surface: '#f4f6f8',
  border: '#e3e8ee',
  muted: '#5b6b7a',
} as const;
