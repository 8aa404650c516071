/** Score bands and colours. Spec 000 §9 (overall score), spec 001 §4 (severity bands, marker colours). */

export type ClimateScoreLevel = 'low' | 'medium' | 'high';

/** Overall climate score: below 20 low (green), 20 to below 60 medium (amber), 60 or more high (red). */
export function climateScoreLevel(score: number): ClimateScoreLevel {
  if (score < 20) return 'low';
  if (score < 60) return 'medium';
  return 'high';
}

export const CLIMATE_SCORE_COLOURS: Record<ClimateScoreLevel, string> = { low: '#389e0d', medium: '#d48806', high: '#cf1322' };

export type SeverityBand = 'No Risk' | 'Low' | 'Medium' | 'Medium-High' | 'High' | 'Very High';

/** Severity band of a 0-100 hazard score (spec 001 §4). */
export function severityBand(score: number): SeverityBand {
  if (score <= 0) return 'No Risk';
  if (score < 25) return 'Low';
  if (score < 50) return 'Medium';
  if (score < 75) return 'Medium-High';
  if (score < 100) return 'High';
  return 'Very High';
}

/** World-map marker colour by score (spec 001 §4). Scores of 1 or less get no colour band (grey). */
export function markerColour(score: number): string {
  if (score >= 100) return '#8b0000';
  if (score > 76) return '#e53935';
  if (score > 51) return '#fb8c00';
  if (score > 26) return '#fdd835';
  if (score > 1) return '#fff59d';
  return '#bdbdbd';
}

/** Amounts are shown in millions, or billions at 1000 million or more (spec 000 §9). Input in currency units. */
export function formatMillions(amount: number, currency = 'USD'): string {
  const m = amount / 1e6;
  if (Math.abs(m) >= 1000) return `${(m / 1000).toFixed(2)} B ${currency}`;
  return `${m.toFixed(2)} M ${currency}`;
}
