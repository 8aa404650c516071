import { useQueries } from '@tanstack/react-query';
import { SCENARIO_LABELS, SCENARIOS } from '@crp/contracts';
import { fetchDashboard, type AssetRow, type DashboardData, type DashboardFiltersSent } from '../../api/dashboard';
import { dashboardKey } from './useDashboard';

export interface AssetAt {
  label: string;
  row: AssetRow | null;
  scores: Record<string, number | null>;
}

/** One asset's row and hazard scores out of a dashboard answer (matched by id, scores by name in the heat map). */
export function assetIn(data: DashboardData | undefined, asset: AssetRow, adaptation = true): { row: AssetRow | null; scores: Record<string, number | null> } {
  if (!data) return { row: null, scores: {} };
  const row = data.asset_table?.find((r) => r.id === asset.id) ?? null;
  const h = adaptation ? data.heatmap : data.heatmap_without_adaptation;
  const scores: Record<string, number | null> = {};
  if (h) {
    const ai = h.assets.indexOf(row?.name ?? asset.name);
    if (ai >= 0) for (const [hi, a, v] of h.data) if (a === ai) scores[h.hazards[hi]!] = v;
  }
  return { row, scores };
}

/**
 * The Comparison tab (spec 001 §2.2): the asset under 2.6, 4.5 and 8.5 at 2050, and at 2020, 2030 and 2050 (plus 2100
 * for ssp) under the chosen scenario. Each is a dashboard query narrowed to the asset's property type.
 */
export function useAssetComparison(base: DashboardFiltersSent, asset: AssetRow, enabled: boolean) {
  const narrowed: DashboardFiltersSent = { ...base, variable: 'Total', count: 'All', property_type: asset.type && asset.type !== 'NA' ? asset.type : 'All' };
  const years = base.analysis_type === 'ssp' ? [2020, 2030, 2050, 2100] : [2020, 2030, 2050];
  const scenarioFilters = SCENARIOS.map((s) => ({ label: SCENARIO_LABELS[base.analysis_type][s], f: { ...narrowed, scenario: s, year: 2050 } }));
  const yearFilters = years.map((y) => ({ label: String(y), f: { ...narrowed, year: y } }));
  const all = [...scenarioFilters, ...yearFilters];
  const results = useQueries({
    queries: all.map(({ f }) => ({ queryKey: dashboardKey(f), queryFn: ({ signal }: { signal: AbortSignal }) => fetchDashboard(f, signal), enabled, staleTime: 60_000, retry: false })),
  });
  const at = (i: number): AssetAt => ({ label: all[i]!.label, ...assetIn(results[i]!.data, asset, base.mitigation) });
  return {
    loading: results.some((r) => r.isLoading),
    error: results.find((r) => r.error)?.error ?? null,
    scenarios: scenarioFilters.map((_, i) => at(i)),
    years: yearFilters.map((_, i) => at(scenarioFilters.length + i)),
  };
}
