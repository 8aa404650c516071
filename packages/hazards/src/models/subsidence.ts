/**
 * Published present-day land-subsidence rates of sinking coastal cities (docs/methodology/hazards.md §3.3). Inside a
 * city's radius the local relative sea-level rate (beyond GMSL) is at least the city's rate: the 0.5° gauge/GIA layer
 * (slr_local_rate) misses subsidence that is local to a city on soft delta sediments (the nearest long gauge often
 * stands on firmer ground, or has no qualifying record; ICE-5G GIA has no human-induced subsidence at all).
 *
 * Only rates read in the cited source are listed; each is held constant to the projection year, as the gauge rates are.
 * Radius: the built-up area the rate was measured over (approximate, stated per city).
 */
export interface CitySubsidence {
  name: string;
  lat: number;
  lng: number;
  /** Radius of the area the rate stands for, km. */
  radiusKm: number;
  /** Land subsidence, mm/yr (positive = sinking: relative sea level rises faster). */
  rateMmYr: number;
  source: string;
}

export const CITY_SUBSIDENCE: readonly CitySubsidence[] = [
  {
    name: 'Ho Chi Minh City',
    lat: 10.78,
    lng: 106.7,
    radiusKm: 25,
    rateMmYr: 16.2,
    source:
      'Tay, C. et al. (2022) Sea-level rise from land subsidence in major coastal cities, Nature Sustainability 5, 1049-1057: median InSAR velocity over the city 2014-2020, the fastest of 48 cities',
  },
  {
    name: 'Jakarta',
    lat: -6.18,
    lng: 106.83,
    radiusKm: 20,
    rateMmYr: 10,
    source:
      'Abidin, H. Z. et al. (2008) Land subsidence characteristics of Jakarta between 1997 and 2005, as estimated using GPS surveys, GPS Solutions 12, 23-32: 1-10 cm/yr; the lower bound is taken for the whole city (about 25 x 25 km, Abidin et al. 2001, Natural Hazards 23, 365), north Jakarta sinks faster',
  },
  {
    name: 'New Orleans',
    lat: 29.96,
    lng: -90.07,
    radiusKm: 20,
    rateMmYr: 8,
    source:
      'Dixon, T. H. et al. (2006) Subsidence and flooding in New Orleans, Nature 441, 587-588: most of the city subsided about 8 mm/yr 2002-2005 (RADARSAT permanent scatterers; up to 28.6 mm/yr locally)',
  },
];

const KM_PER_DEG = 111.32;

/** The largest published subsidence rate (mm/yr) of a city whose radius contains the point; NaN outside every city. */
export function citySubsidenceMmYr(lat: number, lng: number): number {
  let best = NaN;
  for (const c of CITY_SUBSIDENCE) {
    const dy = (lat - c.lat) * KM_PER_DEG;
    if (Math.abs(dy) > c.radiusKm) continue;
    let dl = Math.abs(lng - c.lng);
    if (dl > 180) dl = 360 - dl;
    const dx = dl * KM_PER_DEG * Math.cos((c.lat * Math.PI) / 180);
    if (dx * dx + dy * dy <= c.radiusKm * c.radiusKm && !(c.rateMmYr <= best)) best = c.rateMmYr;
  }
  return best;
}
