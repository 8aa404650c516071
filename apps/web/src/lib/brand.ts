/** Product naming and palette shared by the shell, landing and auth screens. */
export const PRODUCT_NAME = 'Climate Risk Platform';
export const PRODUCT_SHORT_NAME = 'ClimateRisk';

export const palette = {
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
