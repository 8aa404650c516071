/**
 * Step 4 of a dashboard answer: the sections. The answer object, section by section in the order the answer lists
 * them, from the resolved filters, the selection and its figures; each section gated by the caller's tier. In JSON mode
 * (queryJson) the large per-asset sections are returned as placeholders and their JSON text kept in `fragments`.
 */
import {
  BASELINE_YEAR,
  DATA_EDIT_PERMISSIONS,
  METHODOLOGY_VERSION,
  SCENARIO_LABELS,
  SCENARIOS,
  ASSET_TABLE_COLUMNS,
  climateScoreLevel,
  hazardByLabel,
  severityBand,
  type DashboardAssetRow,
  type DashboardAssets,
  type DashboardAssetTable,
  type DashboardBody,
  type HazardKey,
  type ScenarioCode,
  type TierSection,
  LARGE_PORTFOLIO_FILTERS,
} from '@crp/contracts';
import { defaultMeasure, keyFindings, N_HAZARDS, seriesIndices } from '@crp/engine';
import { DATASETS, HAZARD_META } from '@crp/hazards';
import type { ProjectRow } from '../../infra/db/schema.js';
import type { ProjectRole } from '@crp/contracts';
import type { OwnDataMarker } from '../own-layers/own-layer.service.js';
import { scoreMatrixOf } from './dashboard-cache.js';
import {
  ASSET_IDENTITY_KEYS,
  COMPUTED_KEYS,
  IDENTITY_COLUMNS,
  LOSS_FIELDS,
  ROW_KEYS,
  STORED_COLUMNS,
  STORED_KEYS,
  TYPHOON,
  labelOf,
  r2,
  type AssetTableColumn,
} from './dashboard-columns.js';
import {
  byContinent,
  byCountry,
  hazardSummary,
  inventoryLoss,
  meanScore,
  overallBars,
  pctOf,
  perHazardLoss,
  type PortfolioSeries,
  type Totals,
} from './dashboard-figures.js';
import { px, type MoneySums, type Selected } from './dashboard-selection.js';

const DATA_SOURCES = Object.values(DATASETS).map((d) => ({ name: d.name, publisher: d.publisher, license: d.license }));
/** Labels of the project's hazards whose data tier is 'placeholder' (HAZARD_META of @crp/hazards). */
export function placeholderHazards(labels: readonly string[]): string[] {
  return labels.filter((l) => {
    const h = hazardByLabel(l)?.key;
    return h !== undefined && HAZARD_META[h].tier === 'placeholder';
  });
}

/**
 * Indices 0..n-1 of the `k` largest values, largest first, ties in index order: what a stable descending sort of all n
 * followed by slice(0, k) gives, in one pass.
 */
export function topN(n: number, k: number, value: (i: number) => number): number[] {
  const top: number[] = [],
    vals: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = value(i);
    if (top.length === k && !(v > vals[k - 1]!)) continue;
    let at = top.length;
    while (at > 0 && v > vals[at - 1]!) at--;
    top.splice(at, 0, i);
    vals.splice(at, 0, v);
    if (top.length > k) {
      top.pop();
      vals.pop();
    }
  }
  return top;
}

/** Which of the project's hazards took values from own layers at the scenario (null: baseline) and year, over all assets. */
export async function ownDataOf(
  marker: OwnDataMarker | null | undefined,
  assets: readonly { latitude: number; longitude: number }[],
  hazards: readonly HazardKey[],
  sc: ScenarioCode | null,
  year: number,
) {
  if (!marker || marker.labels.length === 0) return null;
  const used = new Set<HazardKey>();
  let n = 0;
  for (let i = 0; i < assets.length; i++) {
    const a = assets[i]!;
    let any = false;
    for (const h of marker.hazardsAt(Number(a.latitude), Number(a.longitude), sc, year))
      if (hazards.includes(h)) {
        used.add(h);
        any = true;
      }
    if (any) n++;
    if ((i & 8191) === 8191) await new Promise((r) => setImmediate(r));
  }
  return { hazards: hazards.filter((h) => used.has(h)).map((h) => labelOf(h)), assets: n, layers: marker.labels };
}

/**
 * Which of the project's hazards took values from published flood maps (issue 34 item 2) at the scenario (null:
 * baseline) and year, over all assets, and the map sets read; `everywhere`: hazards of which every asset's value came
 * from a published map (or own data), so the 'placeholder' warning no longer applies to them.
 */
export async function publishedDataOf(
  marker: OwnDataMarker | null | undefined,
  assets: readonly { latitude: number; longitude: number }[],
  hazards: readonly HazardKey[],
  sc: ScenarioCode | null,
  year: number,
) {
  if (!marker || marker.publishedLabels.length === 0) return { section: null, everywhere: new Set<HazardKey>() };
  const count = new Map<HazardKey, number>();
  const fromMaps = new Set<HazardKey>();
  const sets = new Set<string>();
  let n = 0;
  for (let i = 0; i < assets.length; i++) {
    const lat = Number(assets[i]!.latitude),
      lng = Number(assets[i]!.longitude);
    let any = false;
    const own = marker.hazardsAt(lat, lng, sc, year);
    for (const h of hazards) {
      if (own.has(h)) {
        count.set(h, (count.get(h) ?? 0) + 1);
        continue;
      }
      const label = marker.publishedAt(lat, lng, h, sc, year);
      if (!label) continue;
      sets.add(label);
      fromMaps.add(h);
      count.set(h, (count.get(h) ?? 0) + 1);
      any = true;
    }
    if (any) n++;
    if ((i & 1023) === 1023) await new Promise((r) => setImmediate(r));
  }
  const everywhere = new Set(hazards.filter((h) => fromMaps.has(h) && count.get(h) === assets.length));
  const section = n === 0 ? null : { hazards: hazards.filter((h) => fromMaps.has(h)).map((h) => labelOf(h)), assets: n, datasets: [...sets] };
  return { section, everywhere };
}

/** Everything the sections are made of. */
export interface SectionInput {
  project: ProjectRow;
  role: ProjectRole;
  tierPermissions: Record<TierSection, boolean>;
  edits: Record<string, boolean>;
  body: DashboardBody;
  sel: Selected;
  atYear: MoneySums;
  at2020: MoneySums;
  assetScores: (number | null)[];
  totals: Totals;
  series: PortfolioSeries;
  ownData: Awaited<ReturnType<typeof ownDataOf>>;
  /** Published flood maps read (absent: none). */
  publishedData?: Awaited<ReturnType<typeof publishedDataOf>>;
  /** JSON mode: the per-asset sections' JSON text by placeholder (see asJson). */
  fragments: Map<string, string> | undefined;
}

/** Column of selected-asset scores (null = no data) for the stored hazard index h at stored scenario-year s. */
export function scoreColumn(sel: Selected, h: number, s: number, residual: boolean): (number | null)[] {
  const m = scoreMatrixOf(sel.c, s, residual);
  const col: (number | null)[] = new Array(sel.N);
  for (let n = 0; n < sel.N; n++) {
    const v = m[sel.idx[n]! * N_HAZARDS + h]!;
    col[n] = v === 255 ? null : v;
  }
  return col;
}

/** The per-asset columns of one answer (scores, asset table, identity columns), each made once. */
class AssetColumns {
  private readonly scores: [(number | null)[][] | null, (number | null)[][] | null] = [null, null];
  private readonly table = new Map<AssetTableColumn, unknown[]>();
  constructor(private readonly x: SectionInput) {}
  /** scores[k][n]: score of hazard k for selected asset n at the year, with or without adaptation. */
  scoreColumns(residual: boolean): (number | null)[][] {
    const { sel } = this.x;
    return (this.scores[residual ? 1 : 0] ??= sel.f.hazards.map((_, k) => scoreColumn(sel, sel.hk[k]!, sel.syIdx, residual)));
  }
  heat(residual: boolean) {
    return { hazards: this.x.sel.f.hazards.map(labelOf), scores: this.scoreColumns(residual) };
  }
  /** One column of the asset table over the selection: stored fields, or this query's scores and losses. */
  tableColumn(k: AssetTableColumn): unknown[] {
    let col = this.table.get(k);
    if (col) return col;
    const { sel } = this.x;
    const stored = STORED_COLUMNS[k as keyof typeof STORED_COLUMNS];
    if (stored) col = sel.idx.map((i) => stored(sel.R.assets[i]!));
    else if (k === 'climatic_score') col = this.x.assetScores;
    else if (this.x.tierPermissions.portfolio_losses !== true)
      col = new Array(sel.N).fill(null); // the assets' losses add up to the portfolio's
    else {
      const f = LOSS_FIELDS[k as keyof typeof LOSS_FIELDS];
      col = new Array(sel.N);
      for (let n = 0; n < sel.N; n++) col[n] = r2(px(sel, n, f));
    }
    this.table.set(k, col);
    return col;
  }
  /** One selected asset's row (single_asset). */
  assetRow(n: number): DashboardAssetRow {
    const row = {} as Record<string, unknown>;
    const a = this.x.sel.R.assets[this.x.sel.idx[n]!]!;
    for (const k of ROW_KEYS)
      row[k] = k in IDENTITY_COLUMNS ? IDENTITY_COLUMNS[k as keyof typeof IDENTITY_COLUMNS](a) : this.tableColumn(k as AssetTableColumn)[n];
    return row as DashboardAssetRow;
  }
  assetTable(): DashboardAssetTable {
    return Object.fromEntries(ASSET_TABLE_COLUMNS.map((k) => [k, this.tableColumn(k)])) as DashboardAssetTable;
  }
  assetsBlock(): DashboardAssets {
    const { sel } = this.x;
    const out = Object.fromEntries(ASSET_IDENTITY_KEYS.map((k) => [k, sel.idx.map((i) => IDENTITY_COLUMNS[k](sel.R.assets[i]!))])) as Omit<
      DashboardAssets,
      'continent'
    >;
    return { ...out, continent: sel.idx.map((i) => sel.R.prepared[i]!.continent) };
  }
  /** JSON mode: a placeholder whose JSON text is kept in `fragments` (spliced in after stringification); else the objects. */
  asJson<T>(json: () => string, objects: () => T): T {
    const { fragments } = this.x;
    if (!fragments) return objects();
    const marker = `\u0000dashboard-fragment-${fragments.size}\u0000`;
    fragments.set(marker, json());
    return marker as unknown as T;
  }
  /** JSON text kept per analysis (sections that depend only on the stored data when every asset is selected). */
  staticJson(key: string, make: () => string): string {
    const cache = this.x.sel.c.json;
    let t = cache.get(key);
    if (t === undefined) cache.set(key, (t = make()));
    return t;
  }
}

/** The CVaR charts: by year for a scenario, and by scenario for a year, in money or percentage of the exposed value. */
function charts(x: SectionInput) {
  const { at, sc, year } = x.sel.f;
  const series = seriesIndices(at, sc);
  const yearChart = (unit: 'dollar' | 'percentage', which: 'cvar' | 'rcvar', s: ScenarioCode) =>
    series.years
      .filter((y) => y >= BASELINE_YEAR)
      .map((y) => {
        const v = x.series.portfolioCvar(s, Math.min(y, at === 'rcp' ? 2050 : 2100))[which];
        return { year: y, value: r2(unit === 'dollar' ? v : pctOf(x.totals, v)) };
      });
  const scenarioChart = (unit: 'dollar' | 'percentage', which: 'cvar' | 'rcvar', y: number) =>
    SCENARIOS.map((s) => {
      const v = x.series.portfolioCvar(s, y)[which];
      return { scenario: SCENARIO_LABELS[at][s], value: r2(unit === 'dollar' ? v : pctOf(x.totals, v)) };
    });
  const lastYear = at === 'rcp' ? 2050 : 2100;
  const chart = (which: 'cvar' | 'rcvar') =>
    Object.fromEntries(
      (['dollar', 'percentage'] as const).map((u) => [
        u,
        {
          year_constant: yearChart(u, which, sc),
          year_max: yearChart(u, which, '85'),
          rcp_constant: scenarioChart(u, which, year),
          rcp_max: scenarioChart(u, which, lastYear),
        },
      ]),
    );
  const lossBars = () => {
    const per = x.series.hazardSeries();
    return {
      years: series.years,
      series: x.sel.f.hazards.map((h, q) => ({
        hazard: labelOf(h),
        values: Array.from(x.sel.f.mitigation ? per.lossResidual[q]! : per.loss[q]!, (v) => r2(v)),
      })),
    };
  };
  const cone = () =>
    series.years.map((y) => ({
      year: y,
      low: r2(x.series.portfolioCvar('26', y).cvar),
      mid: r2(x.series.portfolioCvar('45', y).cvar),
      high: r2(x.series.portfolioCvar('85', y).cvar),
    }));
  return { yearChart, chart, lossBars, cone };
}

/** The project, filters and card sections (the head of the answer). */
function headSections(x: SectionInput) {
  const { project, role, body, sel, totals: t } = x;
  const { at, sc, year, hazards, mitigation } = sel.f;
  const cardsAllowed = x.tierPermissions.portfolio_losses === true;
  return {
    project: {
      project_id: project.id,
      name: project.name,
      version: project.version,
      /** The caller's role: owner, write or read (readers cannot edit the table). */
      permission: role,
      analysed_at: project.analysed_at ? new Date(project.analysed_at).toISOString() : null,
      methodology_version: METHODOLOGY_VERSION,
      /** The open datasets the hazard layers are built from, for reports that must name their sources. */
      data_sources: DATA_SOURCES,
      placeholder_hazards: placeholderHazards(project.portfolio_variables as string[]).filter((l) => {
        const h = hazardByLabel(l)?.key;
        return !(h && x.publishedData?.everywhere.has(h));
      }),
      hazards: project.portfolio_variables as string[],
      own_data: x.ownData,
      published_data: x.publishedData?.section ?? null,
    },
    filters: {
      analysis_type: at,
      scenario: sc,
      scenario_label: SCENARIO_LABELS[at][sc],
      year,
      variable: body.variable,
      percentage_type: body.percentage_type,
      mitigation,
      with_content: body.with_content,
      adjusted_gdp: body.adjusted_gdp,
      property_type: body.property_type,
      count: body.count,
      currency: body.currency,
    },
    asset_count: sel.N,
    hazard_count: hazards.length,
    property_types: (sel.c.propertyTypes ??= [...new Set(sel.R.assets.map((a) => a.property_type ?? 'NA'))].sort()),
    overall: {
      overall_risk: t.overallRisk,
      label: t.overallRisk === null ? null : climateScoreLevel(t.overallRisk),
      Max_exposure: cardsAllowed ? r2(t.maxExposure) : null,
    },
    climate_risk_card_data: gate(x, 'portfolio_losses', () => ({
      climate_value_at_risk: r2(t.cvarTot),
      climate_value_at_risk_percentage: r2(pctOf(t, t.cvarTot)),
      residual_climate_value_at_risk: r2(t.rcvarTot),
      residual_climate_value_at_risk_percentage: r2(pctOf(t, t.rcvarTot)),
      avoided_loss: r2(Math.max(0, t.cvarTot - t.rcvarTot)),
      max_exposure: r2(t.maxExposure),
      max_exposure_percentage: r2(pctOf(t, t.maxExposure)),
      total_asset_value: r2(t.totalValue),
      assets_valued_at_construction_cost: valuedAtCost(sel),
      expected_annual_loss: r2(t.eal),
      technical_insurance_premium: r2(t.premium),
      loss_100_year: t.tailsKnown ? r2(t.loss100) : null,
      loss_250_year: t.tailsKnown ? r2(t.loss250) : null,
    })),
  };
}

/**
 * The selected assets whose Total Asset Value is their construction cost because the user gave no valuation (the rule
 * of the engine's PreparedAsset.reportedValue), kept per analysis when every asset is selected.
 */
function valuedAtCost(sel: Selected): number {
  const key = 'valuedAtCost';
  const kept = sel.everyAsset ? sel.c.means.get(key) : undefined;
  if (kept !== undefined && kept !== null) return kept;
  let n = 0;
  for (const i of sel.idx) {
    const a = sel.R.assets[i]!;
    if (!((a.valuation ?? 0) > 0) && (a.construction_cost ?? 0) > 0) n++;
  }
  if (sel.everyAsset) sel.c.means.set(key, n);
  return n;
}

/** A section, or null when the caller's tier does not include it. */
const gate = <T>(x: SectionInput, s: TierSection, v: () => T): T | null => (x.tierPermissions[s] === true ? v() : null);
/** With per_asset 'pages' the per-asset sections are left out (the page endpoints serve them). */
const perAsset = <T>(x: SectionInput, v: () => T): T | undefined => (x.body.per_asset === 'pages' ? undefined : v());

/** The portfolio figures' sections, from the overall bar chart to the severity table. */
function figureSections(x: SectionInput, cols: AssetColumns) {
  const { sel, totals: t, atYear, at2020 } = x;
  const { hazards, mitigation } = sel.f;
  const { syIdx, baseIdx } = sel;
  const ch = charts(x);
  return {
    overall_bar_chart: gate(x, 'portfolio_losses', () => overallBars(sel, t)),
    cvar_chart_data: gate(x, 'rcp_year_loss_bars', () => ({ cvar: ch.chart('cvar'), rcvar: ch.chart('rcvar') })),
    hazard_values: gate(x, 'climate_variable_intensity', () => hazardSummary(sel, syIdx, true)),
    hazard_values_without_adaptation: gate(x, 'climate_variable_intensity', () => hazardSummary(sel, syIdx, false)),
    hazard_values_2020: gate(x, 'climate_variable_intensity', () => hazardSummary(sel, baseIdx, true)),
    hazard_values_2020_without_adaptation: gate(x, 'climate_variable_intensity', () => hazardSummary(sel, baseIdx, false)),
    heatmap: perAsset(x, () => gate(x, 'climate_heatmap', () => cols.heat(true))),
    heatmap_without_adaptation: perAsset(x, () => gate(x, 'climate_heatmap', () => cols.heat(false))),
    heatmap_average: gate(x, 'climate_heatmap', () => Object.fromEntries(hazards.map((h, k) => [labelOf(h), meanScore(sel, k, syIdx, mitigation)]))),
    loss_bars_data: gate(x, 'rcp_year_loss_bars', ch.lossBars),
    loss_bars_data_historic: gate(x, 'rcp_year_loss_bars', () => perHazardLoss(sel, t, at2020, mitigation)),
    portfolio_exposure_percentage_loss: gate(x, 'portfolio_losses', () => perHazardLoss(sel, t, atYear, mitigation)),
    portfolio_exposure_percentage_loss_historic: gate(x, 'portfolio_losses', () => perHazardLoss(sel, t, at2020, mitigation)),
    inventory_loss_data: gate(x, 'portfolio_losses', () => inventoryLoss(sel, syIdx)),
    inventory_loss_data_historic: gate(x, 'portfolio_losses', () => inventoryLoss(sel, baseIdx)),
    metigation_measures: Object.fromEntries(
      hazards.map((h) => [
        labelOf(h),
        [1, 2, 3].map((lvl) => ({ level: lvl, label: ['Low', 'Medium', 'High'][lvl - 1], measure: defaultMeasure(h, lvl as 1 | 2 | 3) })),
      ]),
    ),
    typhoon_map_data: perAsset(x, () =>
      gate(x, 'asset_level_risk_map', () => ({
        wind_ms: sel.idx.map((i) => r2(sel.R.chunks[sel.R.chunkOf[i]!]!.intensity[(sel.R.localOf[i]! * N_HAZARDS + TYPHOON) * sel.S + syIdx]!)),
        score: scoreColumn(sel, TYPHOON, syIdx, mitigation),
      })),
    ),
    /** The severity table's per-hazard scores and bands: climate variable intensity, so gated with it. */
    combined_data: gate(x, 'climate_variable_intensity', () => hazards.map((h, k) => severityRow(sel, h, k))),
  };
}

/** One hazard's row of the severity table: mean scores and bands at the baseline and at the year. */
function severityRow(sel: Selected, h: HazardKey, k: number) {
  const a0 = meanScore(sel, k, sel.baseIdx, sel.f.mitigation);
  const a1 = meanScore(sel, k, sel.syIdx, sel.f.mitigation);
  return {
    hazard: labelOf(h),
    score_2020: a0,
    score: a1,
    band_2020: a0 === null ? 'No data' : severityBand(a0),
    band: a1 === null ? 'No data' : severityBand(a1),
  };
}

/** The key findings: CVaR under the low and high scenarios and its increase by 2030, 2050 and 2100. */
function keyFindingSection(x: SectionInput) {
  const { at, sc, year } = x.sel.f;
  const findings = keyFindings((s, y) => x.series.portfolioCvar(s, y).cvar, at, sc, year);
  return {
    cvar_85: r2(findings.cvar_85),
    cvar_26: r2(findings.cvar_26),
    value_of_transition_policies: r2(findings.value_of_transition_policies),
    increased_by_2030: findings.increased_by_2030 === null ? null : r2(findings.increased_by_2030),
    increased_by_2050: findings.increased_by_2050 === null ? null : r2(findings.increased_by_2050),
    increased_by_2100: findings.increased_by_2100 === null ? null : r2(findings.increased_by_2100),
  };
}

/** The year chart, top assets, cone, countries, maps and key findings. */
function chartAndMapSections(x: SectionInput, cols: AssetColumns) {
  const { sel, assetScores } = x;
  const { sc, mitigation } = sel.f;
  const ch = charts(x);
  return {
    year_chart_data: gate(x, 'rcp_year_loss_bars', () => ({
      percentage: ch.yearChart('percentage', mitigation ? 'rcvar' : 'cvar', sc),
      dollar: ch.yearChart('dollar', mitigation ? 'rcvar' : 'cvar', sc),
    })),
    bar_chart_data: gate(x, 'portfolio_losses', () =>
      topN(sel.N, 10, (n) => px(sel, n, 1) || 0).map((n) => ({ name: sel.R.assets[sel.idx[n]!]!.name, cvar: r2(px(sel, n, 0)), rcvar: r2(px(sel, n, 1)) })),
    ),
    cone_chart: gate(x, 'rcp_year_loss_bars', ch.cone),
    country_wise_loss_data: gate(x, 'portfolio_losses', () =>
      [...byCountry(sel).entries()].map(([country_code, v]) => ({ country_code, cvar: r2(v.cvar), rcvar: r2(v.rcvar), assets: v.assets })),
    ),
    hazard_map_continents: gate(x, 'asset_level_risk_map', () => Object.keys(byContinent(sel)).sort()),
    hazard_map_data: perAsset(x, () => gate(x, 'asset_level_risk_map', () => ({ climate_score: assetScores, ...cols.heat(mitigation) }))),
    hazard_map_data_with_continent: perAsset(x, () => gate(x, 'asset_level_risk_map', () => byContinent(sel))),
    key_finding_data: gate(x, 'portfolio_losses', () => keyFindingSection(x)),
  };
}

/** The per-asset sections (single asset, assets, asset table) and the caller's permissions (the tail of the answer). */
function assetSections(x: SectionInput, cols: AssetColumns) {
  const { sel, body } = x;
  const allowed = (s: TierSection) => x.tierPermissions[s] === true;
  const pages = body.per_asset === 'pages';
  const { everyAsset } = sel;
  return {
    /** The one selected asset's row (amounts): part of the asset table, so gated with it. */
    single_asset:
      allowed('asset_table') && sel.N === 1
        ? [{ ...cols.assetRow(0), hazards: Object.fromEntries(sel.f.hazards.map((h, k) => [labelOf(h), cols.scoreColumns(sel.f.mitigation)[k]![0]!])) }]
        : [],
    // With every asset selected, the stored fields are the same for every filter: their JSON text is kept per analysis.
    assets: perAsset(x, () =>
      allowed('asset_table') || allowed('climate_heatmap') || allowed('asset_level_risk_map')
        ? everyAsset
          ? cols.asJson(
              () => cols.staticJson('assets', () => JSON.stringify(cols.assetsBlock())),
              () => cols.assetsBlock(),
            )
          : cols.assetsBlock()
        : null,
    ),
    ...(pages ? { per_asset_total: sel.N } : {}),
    asset_table: perAsset(x, () =>
      gate(x, 'asset_table', () =>
        everyAsset
          ? cols.asJson(
              () => {
                const stored = cols.staticJson('asset_table', () =>
                  JSON.stringify(Object.fromEntries(STORED_KEYS.map((k) => [k, cols.tableColumn(k)]))).slice(1, -1),
                );
                return `{${stored},${JSON.stringify(Object.fromEntries(COMPUTED_KEYS.map((k) => [k, cols.tableColumn(k)]))).slice(1)}`;
              },
              () => cols.assetTable(),
            )
          : cols.assetTable(),
      ),
    ),
    // an analysis read from its dashboard store: the filters it cannot serve (DashboardService.largeReady refuses them)
    ...(sel.R.large ? { large_portfolio: { assets: sel.R.assets.length, unavailable: [...LARGE_PORTFOLIO_FILTERS] } } : {}),
    tier_permissions: x.tierPermissions,
    data_edit_permissions: Object.fromEntries(DATA_EDIT_PERMISSIONS.map((k) => [k, x.edits[k] !== false])),
  };
}

/** The dashboard answer object, its sections in the answer's order. */
export function answerOf(x: SectionInput) {
  const cols = new AssetColumns(x);
  return { ...headSections(x), ...figureSections(x, cols), ...chartAndMapSections(x, cols), ...assetSections(x, cols) };
}
