/**
 * Words shared by the dashboard, reports, exports and help (issue 35 items 4 and 5).
 *
 * The product's "climate value at risk" is the expected annual loss summed over the 20-year window around a year
 * (spec 001 §9): a sum of expected losses, not a tail measure, so it is never called "CVaR" where a person reads it.
 * The machine field names (`cvar_usd`, `climate_value_at_risk`, ...) stay for compatibility; docs/results-api.md says
 * what they hold.
 */
export const LOSS_LABELS = {
  /** Σ EAL(t) over the 20-year window around the year, undiscounted. */
  expected20y: '20-year expected loss',
  /** The same sum of the residual expected annual loss (after mitigation and adaptation). */
  residual20y: 'Residual 20-year expected loss',
  /** What a finance reader needs to know about the figure. */
  definition: 'expected annual loss summed over the 20-year window around the year, undiscounted: a sum of expected losses, not a tail measure',
} as const;

/** A peril the product does not model, with what it covers. */
export interface PerilNotModelled {
  name: string;
  note: string;
}

/**
 * Perils with material property losses that no hazard of the product models (HAZARDS lists those that are).
 * Coastal surge is modelled for tropical cyclones only; land subsidence enters only as part of relative sea level.
 */
export const PERILS_NOT_MODELLED: readonly PerilNotModelled[] = [
  { name: 'Severe convective storm', note: 'hail, tornado, thunderstorm wind' },
  { name: 'Extratropical windstorm', note: 'winter storms, e.g. European windstorms' },
  { name: 'Storm surge outside tropical cyclones', note: 'e.g. North Sea surge' },
  { name: 'Subsidence', note: 'shrink-swell of clay soils under foundations' },
  { name: 'Earthquake, tsunami and volcano', note: 'geophysical perils' },
];

/**
 * The share of published global losses those perils carry, as the sources state it (references-2.md §10):
 *  - Verisk, 2025 Global Modeled Catastrophe Losses report (Sept 2025): global modelled insured AAL USD 152 bn, of
 *    which the "frequency perils" (severe thunderstorm, winter storm, wildfire, inland flood) USD 98 bn, about two
 *    thirds. Wildfire and inland flood are modelled here; Verisk's per-peril split of the 98 bn is not published in
 *    the sources we hold, so the two thirds is an upper bound for what is missing, not the missing share.
 *  - Swiss Re Institute, sigma 1/2024: 2023 insured natural-catastrophe losses USD 108 bn, of which severe
 *    convective storms USD 64 bn (a record year).
 */
export const PERILS_NOT_MODELLED_SHARE =
  'Severe thunderstorm and winter storm belong to the "frequency perils" (with wildfire and inland flood, which are modelled here) that make up about two thirds (USD 98 bn of 152 bn) of the global modelled insured average annual loss (Verisk, Global Modeled Catastrophe Losses 2025); severe convective storms alone caused USD 64 bn of the USD 108 bn insured natural-catastrophe losses of 2023 (Swiss Re Institute, sigma 1/2024).';

/** One line naming what is not modelled, for headers and footers. */
export const PERILS_NOT_MODELLED_LINE = `Not modelled: ${PERILS_NOT_MODELLED.map((p) => `${p.name.toLowerCase()} (${p.note})`).join('; ')}.`;

/** The whole statement: what is missing, the published share, and what it means for the figures. */
export const PERILS_NOT_MODELLED_TEXT = `${PERILS_NOT_MODELLED_LINE} ${PERILS_NOT_MODELLED_SHARE} The losses shown leave these perils out, so a low figure is not an all-peril figure.`;
