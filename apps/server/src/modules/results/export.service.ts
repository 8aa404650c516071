import {
  BASELINE_YEAR,
  HAZARDS,
  METHODOLOGY_VERSION,
  PERILS_NOT_MODELLED_TEXT,
  SCENARIO_LABELS,
  YEARS,
  hazardByLabel,
  safeCell,
  severityBand,
  type AnalysisType,
  type CsvReportBody,
  type CsvReportRow,
  type HazardKey,
  type ScenarioCode,
} from '@crp/contracts';
import { assetCvar, cellMoney, reportedValue, scenarioYearKey } from '@crp/engine';
import { DATASETS, HAZARD_META } from '@crp/hazards';
import * as XLSX from '@e965/xlsx';
import { assetResultRows, cellsOf } from '../analysis/result-rows.js';
import { loadProjectResults, type DecodeLimit } from '../analysis/results-reader.js';
import type { DB } from '../../infra/db/database.js';
import type { ProjectRow } from '../../infra/db/schema.js';
import type { AuthUser } from '../../lib/auth-context.js';
import { AppError } from '../../lib/errors.js';
import type { FileStore } from '../../infra/file-store.js';
import type { ProjectAccessPolicy } from '../access/project-access.policy.js';
import type { OwnLayerService } from '../own-layers/own-layer.service.js';
import { MONEY_WITHHELD, withholdMoney, type TierGate } from '../accounts/tier.service.js';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
/** Most rows an export may have (a worksheet holds 1,048,576). */
export const EXPORT_MAX_ROWS = 1_000_000;
/** Rows returned inline (`success`) for the pivot table; the file always has them all. */
const INLINE_ROWS = 20_000;

const round = (v: number, digits = 2) => (Number.isFinite(v) ? Math.round(v * 10 ** digits) / 10 ** digits : null);

function sheetOf(rows: Record<string, unknown>[], header: string[]): XLSX.WorkSheet {
  const ws = XLSX.utils.json_to_sheet(
    rows.map((r) => Object.fromEntries(header.map((h) => [h, safeCell(r[h])]))),
    { header },
  );
  ws['!cols'] = header.map((h) => ({ wch: Math.min(40, Math.max(10, h.length + 2)) }));
  return ws;
}

/** The About sheet; the portfolio name is the user's text, so every cell is escaped like the data sheets. */
function aboutSheet(project: ProjectRow, analysisType: AnalysisType, what: string, moneyWithheld = false): XLSX.WorkSheet {
  return aboutOf([
    [what],
    ...(moneyWithheld ? [['Plan', MONEY_WITHHELD]] : []),
    ['Portfolio', project.name],
    ['Analysis type', analysisType.toUpperCase()],
    ['Methodology version', METHODOLOGY_VERSION],
    ['Generated (UTC)', new Date().toISOString()],
    ['Analysed (UTC)', project.analysed_at ? new Date(project.analysed_at).toISOString() : ''],
    ['Currency', project.base_currency],
    [],
    ['Definitions'],
    ['Expected annual loss', 'Average yearly loss of building, content, inventory and business interruption, times ownership (USD).'],
    [
      '20-year expected loss',
      'Expected annual loss summed over the 20-year window around the year (year-9 to year+10; 2100: 2081-2100), undiscounted, USD: a sum of expected losses, not a tail measure (the API field names cvar_usd, residual_cvar_usd and cvar_percent hold it).',
    ],
    [
      'Loss 1-in-100 / 1-in-250 yr',
      "Loss of the event that happens on average once in 100 (250) years at the asset for the hazard, after the site's standard of flood protection, USD.",
    ],
    [
      'Technical premium',
      '1.3 x the expected annual loss of the insurable hazards (floods, surge, cyclone, wildfire, landslide, snow, freeze) / (1 - 0.25 expenses); heat, drought and sea-level rise are not insurable.',
    ],
    [
      'Data tier',
      'How far to trust a hazard: "placeholder" marks river and rainfall flood, screening models until real flood maps are loaded (load your own layers); "own data" marks a value read from your company\'s own hazard layer (Own data layer names it).',
    ],
    ['Residual 20-year expected loss', "The 20-year expected loss after the asset's mitigation level and adaptation measures."],
    [
      'Total asset value',
      'The valuation given for each asset (its construction cost where no valuation was given), plus content and inventory, times ownership (USD): the denominator of every percentage. The damage is of the construction cost where one was given.',
    ],
    ['Maximum exposure', 'Loss in the rarest modelled event at the year, USD.'],
    ['Score', 'Hazard severity, a score out of 100 (not a percentage); bands No Risk, Low (<25), Medium (<50), Medium-High (<75), High (<100), Very High.'],
    ['Not modelled', PERILS_NOT_MODELLED_TEXT],
    [],
    ['Data sources'],
    ...Object.values(DATASETS).map((d) => [d.name, `${d.publisher}. ${d.license}. ${d.citation}`]),
  ]);
}

const aboutOf = (rows: unknown[][]) => XLSX.utils.aoa_to_sheet(rows.map((r) => r.map((v) => safeCell(v))));

export class ExportService {
  constructor(
    private readonly db: DB,
    private readonly policy: ProjectAccessPolicy,
    private readonly files: FileStore,
    /** How much of a stored analysis may be decoded at once (config RESULTS_DECODE_MAX_MB). */
    private readonly decodeLimit: DecodeLimit,
    /** The company's own hazard layers (issue 23 item 3), for the 'own data' marks. */
    private readonly own?: Pick<OwnLayerService, 'markerFor'>,
    /** Whether the caller's tier shows money figures (a Free company's workbooks leave them empty). */
    private readonly tiers?: Pick<TierGate, 'moneyAllowed'>,
  ) {}

  private async moneyAllowed(caller: AuthUser): Promise<boolean> {
    return this.tiers ? this.tiers.moneyAllowed(caller.companyId) : true;
  }

  /** A physical project by name among those the caller can see, with download permission. */
  private async project(caller: AuthUser, name: string) {
    const access = await this.policy.requireByName(caller, name, 'download');
    return access.project;
  }

  /**
   * The CSV report (spec 000 §7): one row per asset x hazard x scenario x year with intensity, score and losses,
   * as an .xlsx behind an expiring link, plus the rows inline for the pivot table.
   */
  async csvReport(caller: AuthUser, body: CsvReportBody) {
    const project = await this.project(caller, body.project_name);
    const at = body.analysis_type;
    const hazards: HazardKey[] = (body.climate_variables ?? (project.portfolio_variables as string[])).map((l) => hazardByLabel(l)!.key);
    const years = [...new Set(body.year_list ?? [...YEARS[at]])].sort((a, b) => a - b);
    const bad = years.filter((y) => !(YEARS[at] as readonly number[]).includes(y) && y !== BASELINE_YEAR);
    if (bad.length)
      throw new AppError(
        400,
        `year_list: ${bad.join(', ')} ${bad.length > 1 ? 'are' : 'is'} not ${at.toUpperCase()} year(s); choose from ${[BASELINE_YEAR, ...YEARS[at]].filter((v, i, a) => a.indexOf(v) === i).join(', ')}.`,
        [{ field: 'year_list', message: 'invalid year' }],
        { error: `year_list: ${bad.join(', ')} not available for ${at.toUpperCase()}` },
      );
    const scenarios = [...new Set(body.scenario_list ?? ['26', '45', '85'])] as ScenarioCode[];
    const results = await loadProjectResults(this.db, project.id, this.decodeLimit);
    const own = await this.own?.markerFor(project);
    await own?.prefetch(results.assets, cellsOf(at, scenarios, years));
    const total = results.assets.length * hazards.length * scenarios.length * years.length;
    if (total > EXPORT_MAX_ROWS) {
      const msg = `This selection makes ${total.toLocaleString('en-US')} rows; a spreadsheet holds at most ${EXPORT_MAX_ROWS.toLocaleString('en-US')}. Choose fewer hazards, years or scenarios.`;
      throw new AppError(400, msg, [{ field: 'year_list', message: 'too many rows' }], { error: msg });
    }
    // The rows of the results API (analysis/result-rows.ts), under the spreadsheet's column names.
    const sel = { analysisType: at, hazards, scenarios, years, withMitigation: body.has_mitigation ?? true, gdpAdjusted: body.adjusted_gdp ?? false };
    const money = await this.moneyAllowed(caller);
    const rows: CsvReportRow[] = [];
    for (const r0 of assetResultRows(results, sel, own)) {
      const r = money ? r0 : withholdMoney(r0);
      rows.push({
        Asset: r.asset_name,
        Latitude: r.latitude,
        Longitude: r.longitude,
        'Property type': r.property_type ?? 'NA',
        Hazard: r.hazard_label,
        Analysis: at === 'rcp' ? 'RCP' : 'SSP',
        Scenario: r.scenario_label,
        Year: r.year,
        Intensity: r.intensity,
        Unit: r.intensity_unit,
        Score: r.score,
        Band: r.band,
        'Expected annual loss (USD)': r.expected_annual_loss_usd,
        'Residual expected annual loss (USD)': r.residual_expected_annual_loss_usd,
        'Maximum exposure (USD)': r.max_exposure_usd,
        'Loss 1-in-100 yr (USD)': r.loss_1_in_100_usd,
        'Loss 1-in-250 yr (USD)': r.loss_1_in_250_usd,
        'Data tier': r.data_tier,
        'Own data layer': r.own_data_layer ?? '',
        'Published dataset': r.published_dataset ?? '',
        '20-year expected loss (USD)': r.cvar_usd,
        'Residual 20-year expected loss (USD)': r.residual_cvar_usd,
        '20-year expected loss (%)': r.cvar_percent,
        'Avoided loss (USD)': r.avoided_loss_usd,
      });
    }
    const header = Object.keys(rows[0] ?? { Asset: '' });
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, sheetOf(rows, header), 'Analysis');
    XLSX.utils.book_append_sheet(wb, aboutSheet(project, at, 'Asset-level climate risk export', !money), 'About');
    const data = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
    const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
    const file = await this.files.save(caller.id, `${project.name}_analysis_${stamp}.xlsx`, XLSX_TYPE, data);
    return {
      success: rows.slice(0, INLINE_ROWS),
      rows: rows.length,
      truncated: rows.length > INLINE_ROWS,
      url: file.url,
      expires_at: file.expires_at,
      error: null,
    };
  }

  /** Portfolio summary workbook: totals per scenario and year, per hazard, and per asset at the default filter. */
  async summaryReport(caller: AuthUser, name: string, at: AnalysisType, withMitigation: boolean) {
    const project = await this.project(caller, name);
    const results = await loadProjectResults(this.db, project.id, this.decodeLimit);
    const hazards: HazardKey[] = (project.portfolio_variables as string[]).map((l) => hazardByLabel(l)!.key);
    const filters = project.default_filters as { analysis_type: string; scenario: string; year: number };
    const portfolioRows0 = summaryPortfolioRows(results, hazards, at, withMitigation);
    const sc = (filters.analysis_type === at ? filters.scenario : '45') as ScenarioCode;
    const year = filters.analysis_type === at ? filters.year : at === 'rcp' ? 2050 : 2050;
    const own = await this.own?.markerFor(project);
    await own?.prefetch(results.assets, cellsOf(at, [sc], [year]));
    const ownAt = results.assets.map((asset) => (own ? own.hazardsAt(Number(asset.latitude), Number(asset.longitude), sc, year) : null));
    const money = await this.moneyAllowed(caller);
    const gate = <T extends object>(rows: T[]) => (money ? rows : rows.map(withholdMoney));
    const hazardRows = gate(summaryHazardRows(results, hazards, at, sc, year, withMitigation, ownAt));
    const assetRows = gate(summaryAssetRows(results, hazards, at, sc, year, ownAt));
    const wb = XLSX.utils.book_new();
    const portfolioRows = gate(portfolioRows0);
    XLSX.utils.book_append_sheet(wb, sheetOf(portfolioRows, Object.keys(portfolioRows[0]!)), 'Portfolio');
    XLSX.utils.book_append_sheet(
      wb,
      sheetOf(hazardRows, Object.keys(hazardRows[0] ?? { Hazard: '' })),
      `Hazards ${SCENARIO_LABELS[at][sc]} ${year}`.slice(0, 31),
    );
    XLSX.utils.book_append_sheet(wb, sheetOf(assetRows, Object.keys(assetRows[0] ?? { Asset: '' })), 'Assets');
    XLSX.utils.book_append_sheet(
      wb,
      aboutSheet(project, at, `Portfolio summary (${SCENARIO_LABELS[at][sc]}, ${year} for the hazard and asset sheets)`, !money),
      'About',
    );
    const data = XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
    const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
    const file = await this.files.save(caller.id, `${project.name}_summary_${stamp}.xlsx`, XLSX_TYPE, data);
    return { url: file.url, expires_at: file.expires_at };
  }
}

type SummaryResults = Awaited<ReturnType<typeof loadProjectResults>>;
type OwnAt = (Set<HazardKey> | null | undefined)[];

/** The summary's Portfolio sheet: totals per scenario and year over every asset. */
function summaryPortfolioRows(results: SummaryResults, hazards: HazardKey[], at: AnalysisType, withMitigation: boolean): Record<string, unknown>[] {
  const portfolioRows: Record<string, unknown>[] = [];
  for (const sc of ['26', '45', '85'] as ScenarioCode[]) {
    for (const year of YEARS[at]) {
      let cvar = 0,
        rcvar = 0,
        maxE = 0,
        value = 0,
        atCost = 0,
        scoreSum = 0,
        scored = 0;
      for (let i = 0; i < results.assets.length; i++) {
        const { chunk, a } = results.locate(i);
        const p = results.prepared[i]!;
        const c = assetCvar(p, chunk, a, hazards, at, sc, year);
        if (Number.isFinite(c.cvar)) cvar += c.cvar;
        if (Number.isFinite(c.rcvar)) rcvar += c.rcvar;
        if (Number.isFinite(c.maxExposure)) maxE += c.maxExposure;
        value += reportedValue(p, true);
        if (p.valuedAtCost) atCost++;
        const S = chunk.scenarioYears.length;
        const cs = (withMitigation ? chunk.climateScoreResidual : chunk.climateScore)[a * S + results.syIndex(scenarioYearKey(at, sc, year))]!;
        if (cs !== 255) {
          scoreSum += cs;
          scored += 1;
        }
      }
      portfolioRows.push({
        Scenario: SCENARIO_LABELS[at][sc],
        Year: year,
        'Climate score': scored ? round(scoreSum / scored, 1) : null,
        'Total asset value (USD)': round(value),
        'Assets valued at construction cost (no valuation given)': atCost,
        '20-year expected loss (USD)': round(cvar),
        'Residual 20-year expected loss (USD)': round(rcvar),
        'Avoided loss (USD)': round(Math.max(0, cvar - rcvar)),
        '20-year expected loss (% of value)': value > 0 ? round((100 * cvar) / value, 3) : null,
        'Maximum exposure (USD)': round(maxE),
      });
    }
  }
  return portfolioRows;
}

/** The summary's Hazards sheet at one scenario-year: mean score, band, EAL and 20-year expected loss per hazard. */
function summaryHazardRows(
  results: SummaryResults,
  hazards: HazardKey[],
  at: AnalysisType,
  sc: ScenarioCode,
  year: number,
  withMitigation: boolean,
  ownAt: OwnAt,
) {
  const key = scenarioYearKey(at, sc, year);
  return hazards.map((h) => {
    let eal = 0,
      cvar = 0,
      scoreSum = 0,
      scored = 0;
    for (let i = 0; i < results.assets.length; i++) {
      const { chunk, a } = results.locate(i);
      const p = results.prepared[i]!;
      const m = cellMoney(p, chunk, a, h, results.syIndex(key));
      if (Number.isFinite(m.eal)) eal += withMitigation ? m.ealResidual : m.eal;
      const c = assetCvar(p, chunk, a, [h], at, sc, year);
      if (Number.isFinite(c.cvar)) cvar += withMitigation ? c.rcvar : c.cvar;
      const s = results.score(i, h, key, withMitigation);
      if (s !== null) {
        scoreSum += s;
        scored += 1;
      }
    }
    const mean = scored ? scoreSum / scored : null;
    const ownAssets = ownAt.filter((s) => s?.has(h)).length;
    return {
      Hazard: HAZARDS.find((x) => x.key === h)!.label,
      'Mean score': mean === null ? null : round(mean, 1),
      Band: mean === null ? 'No data' : severityBand(mean),
      'Expected annual loss (USD)': round(eal),
      [withMitigation ? 'Residual 20-year expected loss (USD)' : '20-year expected loss (USD)']: round(cvar),
      'Data tier': ownAssets > 0 ? `${HAZARD_META[h].tier}; own data at ${ownAssets} of ${results.assets.length} assets` : HAZARD_META[h].tier,
    };
  });
}

/** The summary's Assets sheet at one scenario-year. */
function summaryAssetRows(results: SummaryResults, hazards: HazardKey[], at: AnalysisType, sc: ScenarioCode, year: number, ownAt: OwnAt) {
  const key = scenarioYearKey(at, sc, year);
  return results.assets.map((asset, i) => {
    const { chunk, a } = results.locate(i);
    const c = assetCvar(results.prepared[i]!, chunk, a, hazards, at, sc, year);
    const S = chunk.scenarioYears.length;
    const cs = chunk.climateScore[a * S + results.syIndex(key)]!;
    const p = results.prepared[i]!;
    return {
      Asset: asset.name,
      Latitude: asset.latitude,
      Longitude: asset.longitude,
      'Property type': asset.property_type ?? 'NA',
      'Asset value (USD)': round(reportedValue(p, true)),
      'Value basis': p.valuedAtCost ? 'construction cost (no valuation given)' : p.reportedValue > 0 ? 'valuation' : 'none given',
      '20-year expected loss (% of value)': round(c.cvarPercent, 3),
      'Climate score': cs === 255 ? null : cs,
      '20-year expected loss (USD)': round(c.cvar),
      'Residual 20-year expected loss (USD)': round(c.rcvar),
      'Maximum exposure (USD)': round(c.maxExposure),
      'Loss 1-in-100 yr (USD)': round(c.loss100),
      'Loss 1-in-250 yr (USD)': round(c.loss250),
      'Own data': hazards
        .filter((h) => ownAt[i]?.has(h))
        .map((h) => HAZARDS.find((x) => x.key === h)!.label)
        .join(', '),
    };
  });
}
