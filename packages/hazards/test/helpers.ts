import { loadHazardLayers, type HazardLayers } from '../src/index.js';

let cached: HazardLayers | null = null;
/** The committed layers, loaded once per test file. */
export function layers(): HazardLayers {
  cached ??= loadHazardLayers();
  return cached;
}

/** Well-known places, [lat, lng]. */
export const PLACES = {
  hongKong: [22.3, 114.17],
  waglan: [22.18, 114.3],
  manila: [14.6, 120.98],
  beijing: [39.9, 116.4],
  madrid: [40.4, -3.7],
  riyadh: [24.7, 46.7],
  manaus: [-3.1, -60.0],
  moscow: [55.75, 37.6],
  singapore: [1.35, 103.8],
  yakutsk: [62.0, 129.7],
  miami: [25.77, -80.19],
  amsterdam: [52.37, 4.9],
  sahara: [23.0, 10.0],
  congo: [0.5, 20.0],
  zambiaSavanna: [-13.0, 27.0],
  ulaanbaatar: [47.9, 106.9],
  tokyo: [35.68, 139.69],
  denver: [39.74, -104.99],
  shanghai: [31.23, 121.47],
  kathmandu: [27.7, 85.3],
  london: [51.5, -0.12],
  lasVegas: [36.17, -115.14],
  jakarta: [-6.2, 106.85],
} as const satisfies Record<string, readonly [number, number]>;

export const SSP85_2050 = { analysisType: 'ssp', scenario: '85', year: 2050 } as const;
export const SSP26_2050 = { analysisType: 'ssp', scenario: '26', year: 2050 } as const;
export const BASE_2020 = { analysisType: 'ssp', scenario: '45', year: 2020 } as const;
