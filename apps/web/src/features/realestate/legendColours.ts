import { ELEVATION_BANDS_M, FLOOD_DEPTH_BANDS_M, TYPHOON_WIND_BANDS_KMH } from '@crp/contracts';

/** Legend colours (spec 001 §9 bands): low elevation and deep water / strong wind in the darkest colours. */
export const ELEVATION_COLOURS: Record<(typeof ELEVATION_BANDS_M)[number], string> = {
  '0-20': '#b71c1c',
  '21-40': '#ef6c00',
  '41-80': '#f9a825',
  '81-150': '#9ccc65',
  '>150': '#2e7d32',
};
export const DEPTH_COLOURS: Record<(typeof FLOOD_DEPTH_BANDS_M)[number], string> = {
  '>2': '#08306b',
  '1-2': '#2171b5',
  '0.5-1': '#4292c6',
  '0.25-0.5': '#9ecae1',
  '0-0.25': '#deebf7',
};
export const WIND_COLOURS: Record<(typeof TYPHOON_WIND_BANDS_KMH)[number], string> = {
  '>193': '#67000d',
  '117-193': '#cb181d',
  '88-117': '#fb6a4a',
  '61-88': '#fcbba1',
  '<61': '#fff5f0',
};
