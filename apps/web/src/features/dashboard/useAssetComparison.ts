import { useQueries, useQuery } from '@tanstack/react-query';
import { SCENARIO_LABELS, SCENARIOS, type DashboardAssetPageRow } from '@crp/contracts';
import { fetchAssetPage, type AssetRow, type DashboardFiltersSent } from '../../api/dashboard';

export interface AssetAt {
  label: string;
  row: AssetRow | null;
  scores: Record<string, number | null>;
}

/** Query key of one asset's row under some filters (under 'dashboard', so an asset save refreshes it). */
const assetKey = (f: DashboardFiltersSent, id: number) => ['dashboard', 'asset', f, id] as const;
/** One asset's asset-table row and hazard scores under some filters, from the server (`ids` of api/v2/dashboard/assets/). */
async function fetchAssetAt(f: DashboardFiltersSent, id: number, signal?: AbortSignal): Promise<DashboardAssetPageRow | null> {
  return (await fetchAssetPage(f, { sort: 'position', order: 'asc', search: '', offset: 0, limit: 1, ids: [id] }, signal)).rows[0] ?? null;
}
const at = (r: DashboardAssetPageRow | null | undefined) => ({ row: r ?? null, scores: r?.hazards ?? {} });

/**
 * The asset's row under the dashboard's filters and its hazard scores with or without adaptation (the Risk tab):
 * asked of the server by id, so it works whatever page of the table the asset was opened from.
 */
export function useAssetAt(sent: DashboardFiltersSent, asset: AssetRow, adaptation: boolean) {
  const row = useQuery({ queryKey: assetKey(sent, asset.id), queryFn: ({ signal }) => fetchAssetAt(sent, asset.id, signal), staleTime: 60_000, retry: false });
  const withScores = { ...sent, mitigation: adaptation };
  const scores = useQuery({
    queryKey: assetKey(withScores, asset.id),
    queryFn: ({ signal }) => fetchAssetAt(withScores, asset.id, signal),
    staleTime: 60_000,
    retry: false,
  });
  return { row: row.data ?? null, scores: scores.data?.hazards ?? {}, loading: row.isLoading || scores.isLoading };
}

/**
 * The Comparison tab (spec 001 §2.2): the asset under 2.6, 4.5 and 8.5 at 2050, and at 2020, 2030 and 2050 (plus 2100
 * for ssp) under the chosen scenario. Each is the asset's row under those filters, narrowed to its property type.
 */
export function useAssetComparison(base: DashboardFiltersSent, asset: AssetRow, enabled: boolean) {
  const narrowed: DashboardFiltersSent = { ...base, variable: 'Total', count: 'All', property_type: asset.type && asset.type !== 'NA' ? asset.type : 'All' };
  const years = base.analysis_type === 'ssp' ? [2020, 2030, 2050, 2100] : [2020, 2030, 2050];
  const scenarioFilters = SCENARIOS.map((s) => ({ label: SCENARIO_LABELS[base.analysis_type][s], f: { ...narrowed, scenario: s, year: 2050 } }));
  const yearFilters = years.map((y) => ({ label: String(y), f: { ...narrowed, year: y } }));
  const all = [...scenarioFilters, ...yearFilters];
  const results = useQueries({
    queries: all.map(({ f }) => ({
      queryKey: assetKey(f, asset.id),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchAssetAt(f, asset.id, signal),
      enabled,
      staleTime: 60_000,
      retry: false,
    })),
  });
  const entry = (i: number): AssetAt => ({ label: all[i]!.label, ...at(results[i]!.data) });
  return {
    loading: results.some((r) => r.isLoading),
    error: results.find((r) => r.error)?.error ?? null,
    scenarios: scenarioFilters.map((_, i) => entry(i)),
    years: yearFilters.map((_, i) => entry(scenarioFilters.length + i)),
  };
}
