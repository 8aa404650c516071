import {
  climateScoreLevel,
  CLIMATE_SCORE_COLOURS,
  formatMillions,
  hazardByLabel,
  LOSS_LABELS,
  markerColour,
  PERILS_NOT_MODELLED,
  PERILS_NOT_MODELLED_LINE,
  PERILS_NOT_MODELLED_SHARE,
  type HazardKey,
} from '@crp/contracts';
import type { DashboardService } from '../dashboard/dashboard.service.js';
import { COLORS, SLIDE_W, type Block, type Deck, type Slide } from './deck.js';

export type DashboardAnswer = Awaited<ReturnType<DashboardService['query']>>;

export const UPGRADE_TEXT = 'Please upgrade tier to see content';
/** Hazards whose portfolio score at the report year is above this get an adaptation recommendation (issue 8). */
export const RECOMMEND_ABOVE = 50;
const HEATMAP_ROWS = 15;
const TOP_ASSETS = 10;

/** What to do about each hazard: the measures of docs/adaptation.md, in the words of a recommendation. */
const RECOMMENDATIONS: Record<HazardKey, string[]> = {
  river_flood: [
    'Dry flood-proofing and demountable barriers up to about 0.9 m (FEMA P-936, 2013); raise critical equipment above the 100-year depth.',
    'Medium and high mitigation add a 10- and 25-year standard of protection (flood walls, levees sized for that return period).',
    'Wet flood-proofing of ground floors and basements; keep inventory off the floor in the flood season.',
  ],
  rainfall_flood: [
    'Improve site drainage and sustainable drainage (permeable surfaces, retention) for the 10- to 25-year rain event.',
    'Dry flood-proofing of entrances and basements up to about 0.9 m (FEMA P-936, 2013); backflow valves on drains.',
  ],
  storm_surge: [
    'Coastal barriers and flood gates sized for the 25-year surge; dry flood-proofing of ground floors up to about 0.9 m (FEMA P-312, 2014).',
    'Move critical equipment and inventory above the surge level; plan for closure and evacuation before landfall.',
  ],
  typhoon: [
    'Impact-rated shutters and glazing, strengthened roof-to-wall connections (IBHS FORTIFIED Commercial).',
    'Secure roof-mounted equipment and cladding; inspect roofs before each typhoon season.',
  ],
  wildfire: [
    'Defensible space of 30 m around buildings, ember-resistant vents and class A roofing.',
    'Fuel management on the site boundary; fire-resistant cladding for exposed facades.',
  ],
  extreme_heat: [
    'Cooling and ventilation capacity for the projected hot days; shifted working hours in heat waves.',
    'Heat-stress protocols for outdoor work (ISO 7243 WBGT limits).',
  ],
  extreme_cold: ['Insulate pipes and critical equipment; freeze-protection plans for the projected cold days.'],
  snowfall: ['Check roof load capacity against the projected snow load (EN 1991-1-3); snow-clearing plans.'],
  landslide: ['Slope stabilisation and drainage; geotechnical survey of cut slopes near the asset.'],
  sea_level_rise: ['Plan for permanent inundation: raise ground floors, relocate critical functions, or plan managed retreat for the asset.'],
  drought: ['Water-efficiency and storage for the projected dry spells; alternative water supply contracts.'],
};

const money = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? 'n/a' : formatMillions(v));
const pct = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? 'n/a' : `${v.toFixed(2)} %`);
const m = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v / 1e4) / 100);

function heading(title: string, sub?: string): Block[] {
  const out: Block[] = [{ kind: 'text', x: 0.5, y: 0.35, w: SLIDE_W - 1, h: 0.6, text: title, size: 26, bold: true, color: COLORS.navy }];
  if (sub) out.push({ kind: 'text', x: 0.5, y: 0.95, w: SLIDE_W - 1, h: 0.4, text: sub, size: 13, color: COLORS.muted });
  out.push({ kind: 'rect', x: 0.5, y: 1.4, w: 1.2, h: 0.06, fill: COLORS.teal });
  return out;
}

function upgrade(y = 2): Block {
  return { kind: 'text', x: 0.5, y, w: SLIDE_W - 1, h: 0.6, text: UPGRADE_TEXT, size: 18, color: COLORS.muted, align: 'center' };
}

/** Score cell colour: the world-map marker colours of spec 001 §4. */
const scoreFill = (s: number | null) => (s === null ? null : markerColour(s));

export interface DeckOptions {
  withContent: boolean;
  generatedAt: Date;
  companyName: string;
}

/** What every slide reads: the dashboard answer, the options and the filter words shared by the pages. */
interface DeckContext {
  d: DashboardAnswer;
  opts: DeckOptions;
  f: DashboardAnswer['filters'];
  /** "SSP2-4.5, 2050": scenario label and year. */
  scenarioYear: string;
  variant: 'With Content' | 'Without Content';
  card: DashboardAnswer['climate_risk_card_data'];
  hazards: DashboardAnswer['project']['hazards'];
  combined: DashboardAnswer['combined_data'];
  bars: DashboardAnswer['overall_bar_chart'];
}

/** 1. Title. */
function titleSlide(ctx: DeckContext): Slide {
  const { d, opts, scenarioYear, variant } = ctx;
  return {
    title: d.project.name,
    cover: true,
    blocks: [
      { kind: 'text', x: 0.8, y: 1.6, w: 11.5, h: 0.5, text: 'PHYSICAL CLIMATE RISK REPORT', size: 16, bold: true, color: COLORS.tealBright },
      { kind: 'text', x: 0.8, y: 2.2, w: 11.5, h: 1.4, text: d.project.name, size: 40, bold: true, color: '#ffffff' },
      {
        kind: 'text',
        x: 0.8,
        y: 3.8,
        w: 11.5,
        h: 0.5,
        text: `Scenario ${scenarioYear} · ${d.asset_count} assets · ${d.hazard_count} hazards · ${variant}`,
        size: 18,
        color: '#e2e8f0',
      },
      {
        kind: 'text',
        x: 0.8,
        y: 4.4,
        w: 11.5,
        h: 0.4,
        text: `${opts.companyName} · generated ${opts.generatedAt.toISOString().slice(0, 10)} · methodology ${d.project.methodology_version}`,
        size: 13,
        color: '#94a3b8',
      },
      { kind: 'rect', x: 0.8, y: 5.2, w: 2.0, h: 0.08, fill: COLORS.tealBright },
    ],
  };
}

/** 2. Portfolio overview: assets, value, hazards, countries. */
/** What the Total Asset Value (the denominator of the report's percentages) is made of (issue 37 item 2). */
function valueBasis(card: { assets_valued_at_construction_cost: number } | null | undefined, variant: DeckContext['variant']): string {
  const n = card?.assets_valued_at_construction_cost ?? 0;
  const what = variant === 'With Content' ? 'valuations + content' : 'valuations';
  // one line of the KPI box: the assets without a valuation count at their construction cost
  return n > 0 ? `${what}; ${n} unvalued at cost` : `${what}, x ownership`;
}

type CountryLoss = NonNullable<DashboardAnswer['country_wise_loss_data']>[number];
/** Rows the overview's country table holds (at 4.4 in high). */
const OVERVIEW_COUNTRY_ROWS = 12;
/** Rows of one table of the Countries slides, and tables side by side on one slide. */
const COUNTRY_TABLE_ROWS = 14;
const COUNTRY_TABLES_PER_SLIDE = 3;
const countryRow = (c: CountryLoss) => [c.country_code, String(c.assets), money(c.rcvar)];

/**
 * The overview's country rows: every country when they fit, else the first ones and a row that sums the others and
 * points to the Countries slides that list them all (issue 37 item 7: the table was cut at 12 without a word).
 */
function overviewCountryRows(countries: CountryLoss[]): string[][] {
  if (countries.length <= OVERVIEW_COUNTRY_ROWS) return countries.map(countryRow);
  const shown = countries.slice(0, OVERVIEW_COUNTRY_ROWS - 1);
  const rest = countries.slice(OVERVIEW_COUNTRY_ROWS - 1);
  const gated = rest.some((c) => c.rcvar === null || c.rcvar === undefined);
  const restLoss = gated ? null : rest.reduce((t, c) => t + (c.rcvar as number), 0);
  return [...shown.map(countryRow), [`${rest.length} more (next slide)`, String(rest.reduce((t, c) => t + c.assets, 0)), money(restLoss)]];
}

/** Every country of the portfolio, when the overview's table cannot hold them: tables side by side, slides as needed. */
function countrySlides(ctx: DeckContext): Slide[] {
  const countries = [...(ctx.d.country_wise_loss_data ?? [])].sort((a, b) => b.assets - a.assets);
  if (countries.length <= OVERVIEW_COUNTRY_ROWS) return [];
  const perSlide = COUNTRY_TABLE_ROWS * COUNTRY_TABLES_PER_SLIDE;
  const slides: Slide[] = [];
  for (let from = 0; from < countries.length; from += perSlide) {
    const page = countries.slice(from, from + perSlide);
    const tables: Block[] = [];
    for (let t = 0; t * COUNTRY_TABLE_ROWS < page.length; t++)
      tables.push({
        kind: 'table',
        x: 0.5 + t * 4.15,
        y: 1.7,
        w: 4.0,
        h: 5.0,
        header: ['Country', 'Assets', 'Residual 20-yr expected loss'],
        rows: page.slice(t * COUNTRY_TABLE_ROWS, (t + 1) * COUNTRY_TABLE_ROWS).map(countryRow),
        colW: [1.1, 0.9, 2.0],
        size: 10,
      });
    const title = from === 0 ? 'Countries' : 'Countries (continued)';
    slides.push({
      title,
      blocks: [...heading(title, `All ${countries.length} countries of the portfolio, by number of assets · ${ctx.scenarioYear}`), ...tables],
    });
  }
  return slides;
}

function overviewSlide(ctx: DeckContext): Slide {
  const { d, f, scenarioYear, variant, card, hazards } = ctx;
  const countries = [...(d.country_wise_loss_data ?? [])].sort((a, b) => b.assets - a.assets);
  return {
    title: 'Portfolio overview',
    blocks: [
      ...heading(
        'Portfolio overview',
        `${d.asset_count} assets in ${countries.length || 'n/a'} ${countries.length === 1 ? 'country' : 'countries'} · ${hazards.length} hazards assessed`,
      ),
      {
        kind: 'kpi',
        x: 0.5,
        y: 1.8,
        w: 3.0,
        h: 1.3,
        label: 'Assets',
        value: String(d.asset_count),
        note: `property types: ${d.property_types.join(', ')}`,
        accent: COLORS.teal,
      },
      {
        kind: 'kpi',
        x: 0.5,
        y: 3.3,
        w: 3.0,
        h: 1.3,
        label: 'Total asset value',
        value: money(card?.total_asset_value),
        note: valueBasis(card, variant),
        accent: COLORS.teal,
      },
      {
        kind: 'kpi',
        x: 0.5,
        y: 4.8,
        w: 3.0,
        h: 1.3,
        label: 'Scenario and year',
        value: scenarioYear,
        note: `${f.analysis_type.toUpperCase()} · ${variant}`,
        accent: COLORS.teal,
      },
      { kind: 'bullets', x: 3.9, y: 1.8, w: 4.2, h: 4.4, size: 13, items: ['Hazards assessed:', ...hazards] },
      countries.length
        ? {
            kind: 'table',
            x: 8.4,
            y: 1.8,
            w: 4.4,
            h: 4.4,
            header: ['Country', 'Assets', 'Residual 20-yr expected loss'],
            rows: overviewCountryRows(countries),
            colW: [1.4, 1.0, 2.0],
          }
        : upgrade(3),
    ],
  };
}

/** 3. Climate score: the average score and the hazard scores 2020 vs the year. */
function climateScoreSlide(ctx: DeckContext): Slide {
  const { d, f, scenarioYear, combined } = ctx;
  const score = d.overall.overall_risk;
  const level = score === null ? null : climateScoreLevel(score);
  const levelColour = level ? CLIMATE_SCORE_COLOURS[level] : COLORS.muted;
  return {
    title: 'Climate score',
    blocks: [
      ...heading('Climate score', `Average climate score of the assets, 0-100, ${scenarioYear}${f.mitigation ? ', with adaptation' : ''}`),
      { kind: 'text', x: 0.5, y: 1.8, w: 4.5, h: 1.4, text: score === null ? 'n/a' : `${score.toFixed(1)} / 100`, size: 60, bold: true, color: levelColour },
      {
        kind: 'text',
        x: 0.5,
        y: 3.2,
        w: 4.5,
        h: 0.5,
        text: level ? `${level[0]!.toUpperCase()}${level.slice(1)} risk` : 'No score',
        size: 20,
        bold: true,
        color: levelColour,
      },
      { kind: 'rect', x: 0.5, y: 3.9, w: 4.5, h: 0.25, fill: COLORS.border },
      { kind: 'rect', x: 0.5, y: 3.9, w: Math.max(0.02, (4.5 * Math.min(100, Math.max(0, score ?? 0))) / 100), h: 0.25, fill: levelColour },
      {
        kind: 'bullets',
        x: 0.5,
        y: 4.4,
        w: 4.5,
        h: 1.8,
        size: 12,
        items: ['Below 20: low risk (green)', '20 to below 60: medium risk (amber)', '60 or more: high risk (red)'],
      },
      combined
        ? {
            kind: 'chart',
            x: 5.4,
            y: 1.7,
            w: 7.4,
            h: 4.9,
            type: 'hbar',
            title: 'Hazard scores: 2020 vs ' + f.year,
            unit: 'score (0-100)',
            max: 100,
            categories: combined.map((c) => c.hazard),
            series: [
              { name: '2020', values: combined.map((c) => c.score_2020), color: COLORS.baseline },
              { name: String(f.year), values: combined.map((c) => c.score), color: COLORS.teal },
            ],
          }
        : { ...upgrade(3.5), x: 5.4, w: 7.4 },
    ],
  };
}

/** 4. KPI cards and key findings. */
// eslint-disable-next-line max-lines-per-function -- one slide's layout, box by box; 80 lines before Prettier wrapped it
function keyFiguresSlide(ctx: DeckContext): Slide {
  const { d, f, scenarioYear, card, variant } = ctx;
  const k = d.key_finding_data;
  const findings = !k
    ? []
    : [
        `Under the high-emission scenario (8.5) the portfolio 20-year expected loss at ${f.year} is ${money(k.cvar_85)}; under 2.6 it is ${money(k.cvar_26)}.`,
        `Value of transition policies (20-year expected loss avoided by following 2.6 instead of 8.5): ${money(k.value_of_transition_policies)}.`,
        ...(
          [
            ['2030', k.increased_by_2030],
            ['2050', k.increased_by_2050],
            ['2100', k.increased_by_2100],
          ] as const
        )
          .filter(([, v]) => v !== null)
          .map(([y, v]) => `20-year expected loss change by ${y} against 2020: ${v! >= 0 ? '+' : ''}${v!.toFixed(1)} %.`),
      ];
  return {
    title: 'Key figures',
    blocks: card
      ? [
          ...heading('Key figures', `${scenarioYear} · losses in USD over the 20-year window around the year`),
          {
            kind: 'kpi',
            x: 0.5,
            y: 1.8,
            w: 2.95,
            h: 1.5,
            label: '20-year expected loss',
            value: money(card.climate_value_at_risk),
            note: `${pct(card.climate_value_at_risk_percentage)} of value`,
            accent: COLORS.cvar,
          },
          {
            kind: 'kpi',
            x: 3.6,
            y: 1.8,
            w: 2.95,
            h: 1.5,
            label: 'Residual 20-year expected loss',
            value: money(card.residual_climate_value_at_risk),
            note: `${pct(card.residual_climate_value_at_risk_percentage)} of value`,
            accent: COLORS.rcvar,
          },
          { kind: 'kpi', x: 6.7, y: 1.8, w: 2.95, h: 1.5, label: 'Avoided loss', value: money(card.avoided_loss), note: 'by adaptation', accent: COLORS.s26 },
          {
            kind: 'kpi',
            x: 9.8,
            y: 1.8,
            w: 2.95,
            h: 1.5,
            label: 'Maximum exposure',
            value: money(card.max_exposure),
            note: `${pct(card.max_exposure_percentage)} of value`,
            accent: COLORS.s45,
          },
          {
            kind: 'kpi',
            x: 0.5,
            y: 3.5,
            w: 2.95,
            h: 1.3,
            label: 'Total asset value',
            value: money(card.total_asset_value),
            note: valueBasis(card, variant),
            accent: COLORS.teal,
          },
          { kind: 'kpi', x: 3.6, y: 3.5, w: 2.95, h: 1.3, label: 'Expected annual loss', value: money(card.expected_annual_loss), accent: COLORS.teal },
          {
            kind: 'kpi',
            x: 6.7,
            y: 3.5,
            w: 2.95,
            h: 1.3,
            label: 'Technical insurance premium',
            value: money(card.technical_insurance_premium),
            note: 'per year, insurable hazards',
            accent: COLORS.teal,
          },
          {
            kind: 'kpi',
            x: 9.8,
            y: 3.5,
            w: 2.95,
            h: 1.3,
            label: '1-in-100 / 1-in-250-yr loss',
            value: card.loss_100_year === null ? 'n/a' : money(card.loss_100_year),
            note: card.loss_250_year === null ? 're-run the analysis' : `${money(card.loss_250_year)} at 250 years`,
            accent: COLORS.teal,
          },
          { kind: 'text', x: 0.5, y: 5.0, w: 12.3, h: 0.4, text: 'Key findings', size: 15, bold: true, color: COLORS.navy },
          { kind: 'bullets', x: 0.5, y: 5.4, w: 12.3, h: 1.2, size: 12, items: findings },
          { kind: 'text', x: 0.5, y: 6.6, w: 12.3, h: 0.35, size: 9, color: COLORS.muted, text: `${PERILS_NOT_MODELLED_LINE} See "Perils not modelled".` },
        ]
      : [...heading('Key figures'), upgrade()],
  };
}

/** 5. 20-year expected loss vs residual by hazard, and the portfolio's path by scenario. */
function cvarSlide(ctx: DeckContext): Slide {
  const { d, scenarioYear, bars } = ctx;
  const cone = d.cone_chart;
  return {
    title: '20-year expected loss vs residual',
    blocks: bars
      ? [
          ...heading('20-year expected loss vs residual', `Per hazard at ${scenarioYear} (M USD), and the portfolio's path under 2.6, 4.5 and 8.5`),
          {
            kind: 'chart',
            x: 0.4,
            y: 1.7,
            w: 6.4,
            h: 5.1,
            type: 'bar',
            title: '20-year expected loss and residual, by hazard',
            unit: 'M USD',
            categories: bars.map((b) => b.hazard),
            series: [
              { name: '20-year expected loss', values: bars.map((b) => m(b.cvar)), color: COLORS.cvar },
              { name: 'Residual 20-year expected loss', values: bars.map((b) => m(b.rcvar)), color: COLORS.rcvar },
            ],
          },
          cone
            ? {
                kind: 'chart',
                x: 6.9,
                y: 1.7,
                w: 6.0,
                h: 5.1,
                type: 'line',
                title: 'Portfolio 20-year expected loss by scenario',
                unit: 'M USD',
                categories: cone.map((c) => String(c.year)),
                series: [
                  { name: '2.6', values: cone.map((c) => m(c.low)), color: COLORS.s26 },
                  { name: '4.5', values: cone.map((c) => m(c.mid)), color: COLORS.s45 },
                  { name: '8.5', values: cone.map((c) => m(c.high)), color: COLORS.s85 },
                ],
              }
            : upgrade(3),
        ]
      : [...heading('20-year expected loss vs residual'), upgrade()],
  };
}

/** 6. Heat map: scores by asset and hazard for the assets with the highest residual 20-year expected loss. */
function heatMapSlide(ctx: DeckContext): Slide {
  const { d, scenarioYear } = ctx;
  const heat = d.heatmap;
  if (heat) {
    const table = d.asset_table ?? [];
    const order = heat.assets
      .map((name, i) => ({ name, i, rcvar: table[i]?.overall_loss ?? 0 }))
      .sort((a, b) => (b.rcvar ?? 0) - (a.rcvar ?? 0))
      .slice(0, HEATMAP_ROWS);
    const cell = new Map(heat.data.map(([h, a, s]) => [`${a}:${h}`, s as number | null]));
    const shown = heat.hazards;
    const nameW = 3.0;
    const colW = Math.min(1.2, (SLIDE_W - 1 - nameW) / Math.max(1, shown.length));
    return {
      title: 'Hazard heat map',
      blocks: [
        ...heading(
          'Hazard heat map',
          `Scores 0-100 by asset and hazard, ${scenarioYear}${heat.assets.length > HEATMAP_ROWS ? ` · the ${HEATMAP_ROWS} assets with the highest residual 20-year expected loss of ${heat.assets.length}` : ''}`,
        ),
        {
          kind: 'table',
          x: 0.5,
          y: 1.7,
          w: nameW + colW * shown.length,
          h: 5.2,
          size: 9,
          header: ['Asset', ...shown],
          colW: [nameW, ...shown.map(() => colW)],
          rows: order.map((o) => [
            o.name,
            ...shown.map((_, h) => {
              const s = cell.get(`${o.i}:${h}`);
              return s === null || s === undefined ? '–' : String(s);
            }),
          ]),
          fills: order.map((o) => [null, ...shown.map((_, h) => scoreFill(cell.get(`${o.i}:${h}`) ?? null))]),
        },
      ],
    };
  }
  return { title: 'Hazard heat map', blocks: [...heading('Hazard heat map'), upgrade()] };
}

/** 7. Top assets at risk. */
function topAssetsSlide(ctx: DeckContext): Slide {
  const { d, scenarioYear } = ctx;
  const top = (d.asset_table ?? [])
    .slice()
    .sort((a, b) => (b.overall_loss ?? 0) - (a.overall_loss ?? 0))
    .slice(0, TOP_ASSETS);
  return {
    title: 'Top assets at risk',
    blocks: d.asset_table
      ? [
          ...heading('Top assets at risk', `The ${top.length} assets with the highest residual 20-year expected loss, ${scenarioYear}`),
          {
            kind: 'chart',
            x: 0.4,
            y: 1.7,
            w: 6.2,
            h: 5.1,
            type: 'hbar',
            title: '20-year expected loss and residual (M USD)',
            unit: 'M USD',
            categories: top.map((a) => a.name).reverse(),
            series: [
              { name: '20-year expected loss', values: top.map((a) => m(a.cvar)).reverse(), color: COLORS.cvar },
              { name: 'Residual 20-year expected loss', values: top.map((a) => m(a.overall_loss)).reverse(), color: COLORS.rcvar },
            ],
          },
          {
            kind: 'table',
            x: 6.8,
            y: 1.7,
            w: 6.0,
            h: 5.1,
            size: 9,
            header: ['Asset', 'Country', 'Score', 'Residual 20-yr expected loss', '% of value'],
            colW: [2.4, 0.8, 0.7, 1.3, 0.8],
            rows: top.map((a) => [
              a.name,
              a.country_code ?? '',
              a.climatic_score === null ? 'n/a' : String(a.climatic_score),
              money(a.overall_loss),
              pct(a.percentage),
            ]),
            fills: top.map((a) => [null, null, scoreFill(a.climatic_score), null, null]),
          },
        ]
      : [...heading('Top assets at risk'), upgrade()],
  };
}

/** 8. One page per hazard: scores, intensity, losses, the highest-scoring assets and what to do. */
function hazardSlide(ctx: DeckContext, c: NonNullable<DashboardAnswer['combined_data']>[number]): Slide {
  const { d, scenarioYear, bars } = ctx;
  const key = hazardByLabel(c.hazard)?.key;
  const now = d.hazard_values?.[c.hazard];
  const base = d.hazard_values_2020?.[c.hazard];
  const bar = bars?.find((b) => b.hazard === c.hazard);
  const ranked = (d.hazard_map_data ?? [])
    .map((a) => ({ name: a.name, s: a.scores[c.hazard] ?? null }))
    .filter((a) => a.s !== null)
    .sort((a, b) => b.s! - a.s!)
    .slice(0, 8);
  const intensity = (v: (string | number | null)[] | undefined) =>
    v && typeof v[0] === 'number' ? `${v[0].toFixed(Math.abs(v[0]) < 10 ? 2 : 1)} ${v[1]}` : 'n/a';
  return {
    title: c.hazard,
    blocks: [
      ...heading(c.hazard, `${scenarioYear} · severity ${c.band} (2020: ${c.band_2020})`),
      {
        kind: 'kpi',
        x: 0.5,
        y: 1.8,
        w: 2.9,
        h: 1.3,
        label: 'Average score',
        value: c.score === null ? 'n/a' : String(c.score),
        note: `2020: ${c.score_2020 ?? 'n/a'}`,
        accent: scoreFill(c.score) ?? COLORS.muted,
      },
      {
        kind: 'kpi',
        x: 0.5,
        y: 3.25,
        w: 2.9,
        h: 1.3,
        label: 'Average intensity',
        value: intensity(now as (string | number | null)[] | undefined),
        note: `2020: ${intensity(base as (string | number | null)[] | undefined)}`,
        accent: COLORS.teal,
      },
      {
        kind: 'kpi',
        x: 0.5,
        y: 4.7,
        w: 2.9,
        h: 1.3,
        label: '20-year expected loss / residual',
        value: bar ? money(bar.cvar) : 'n/a',
        note: bar ? `residual ${money(bar.rcvar)}` : undefined,
        accent: COLORS.cvar,
      },
      ranked.length
        ? {
            kind: 'chart',
            x: 3.7,
            y: 1.7,
            w: 5.4,
            h: 5.0,
            type: 'hbar',
            title: 'Highest-scoring assets',
            unit: 'score (0-100)',
            max: 100,
            categories: ranked.map((a) => a.name).reverse(),
            series: [{ name: 'Score', values: ranked.map((a) => a.s).reverse(), color: COLORS.teal }],
          }
        : { kind: 'text', x: 3.7, y: 3, w: 5.4, h: 0.5, text: 'No asset scores for this hazard.', size: 14, color: COLORS.muted },
      { kind: 'text', x: 9.4, y: 1.8, w: 3.5, h: 0.4, text: 'What to do', size: 14, bold: true, color: COLORS.navy },
      { kind: 'bullets', x: 9.4, y: 2.2, w: 3.5, h: 4.5, size: 11, items: key ? RECOMMENDATIONS[key].slice(0, 2) : [] },
    ],
  };
}

/** 9. Adaptation recommendations for hazards scoring above 50. */
function recommendationsSlide(ctx: DeckContext): Slide {
  const { f, scenarioYear, combined } = ctx;
  const urgent = (combined ?? []).filter((c) => c.score !== null && c.score > RECOMMEND_ABOVE);
  return {
    title: 'Adaptation recommendations',
    blocks: [
      ...heading('Adaptation recommendations', `Hazards whose average score at ${f.year} is above ${RECOMMEND_ABOVE}`),
      urgent.length
        ? {
            kind: 'table',
            x: 0.5,
            y: 1.8,
            w: 12.3,
            h: 5.0,
            size: 11,
            header: ['Hazard', 'Score', 'Recommended measures'],
            colW: [2.0, 0.9, 9.4],
            rows: urgent.map((c) => [c.hazard, String(c.score), (RECOMMENDATIONS[hazardByLabel(c.hazard)!.key] ?? []).join(' ')]),
            fills: urgent.map((c) => [null, scoreFill(c.score), null]),
          }
        : !combined
          ? upgrade()
          : {
              kind: 'text',
              x: 0.5,
              y: 2.2,
              w: 12.3,
              h: 1.2,
              size: 16,
              color: COLORS.ink,
              text: `No hazard scores above ${RECOMMEND_ABOVE} for this portfolio at ${f.year} (${scenarioYear}). Keep the measures of the per-hazard pages under review as the scenario evolves.`,
            },
    ],
  };
}

/** 10. What the losses leave out: the perils not modelled and the share of global losses they carry (issue 35 item 4). */
function notModelledSlide(): Slide {
  return {
    title: 'Perils not modelled',
    blocks: [
      ...heading('Perils not modelled', 'The losses in this report leave these perils out'),
      { kind: 'bullets', x: 0.5, y: 1.8, w: 12.3, h: 1.9, size: 14, items: PERILS_NOT_MODELLED.map((p) => `${p.name}: ${p.note}.`) },
      { kind: 'text', x: 0.5, y: 3.9, w: 12.3, h: 1.1, size: 13, color: COLORS.ink, text: PERILS_NOT_MODELLED_SHARE },
      {
        kind: 'text',
        x: 0.5,
        y: 5.2,
        w: 12.3,
        h: 0.5,
        size: 13,
        color: COLORS.muted,
        text: 'A low loss for a portfolio outside the tropical-cyclone belt is not an all-peril figure.',
      },
    ],
  };
}

/** 11. Methodology and data sources. */
function methodologySlide(ctx: DeckContext): Slide {
  const { d, opts, scenarioYear, variant } = ctx;
  return {
    title: 'Methodology and data sources',
    blocks: [
      ...heading(
        'Methodology and data sources',
        `Methodology version ${d.project.methodology_version} · analysed ${d.project.analysed_at?.slice(0, 10) ?? 'n/a'} · ${scenarioYear} · ${variant}`,
      ),
      {
        kind: 'bullets',
        x: 0.5,
        y: 1.7,
        w: 5.2,
        h: 5.2,
        size: 11,
        items: [
          'Hazard intensities per asset from our hazard layers built from open data, for 2020 and every scenario and year.',
          'Damage from published vulnerability curves (JRC depth-damage, Emanuel wind, and the rules of the Climate Methodology).',
          `20-year expected loss: the ${LOSS_LABELS.definition}; the residual one after mitigation and adaptation. The tail figures are the 1-in-100 and 1-in-250-year losses.`,
          'Perils not modelled: see the previous page; the losses leave them out.',
          ...(d.project.own_data
            ? [
                `Own data: ${d.project.own_data.hazards.join(', ') || 'no hazard at this scenario and year'} at ${d.project.own_data.assets} asset(s) come from your company's own hazard layers (${d.project.own_data.layers.join('; ')}), not from our layers; their quality is your data's.`,
              ]
            : []),
          ...(d.project.published_data
            ? [
                `Published dataset: ${d.project.published_data.hazards.join(', ')} at ${d.project.published_data.assets} asset(s) come from published flood maps registered on this installation (${d.project.published_data.datasets.join('; ')}), read at the nearest scenario and year they offer.`,
              ]
            : []),
          ...(d.project.placeholder_hazards.length
            ? [
                `Placeholder tier: ${d.project.placeholder_hazards.join(' and ')} come from screening models (no real flood maps loaded); load your own flood layers (Climate Methodology, "Bring your own hazard layers").`,
              ]
            : []),
          'Climate score: a score out of 100 (not a percentage) from the loss ratio of each asset; bands below 20 low, below 60 medium, else high.',
          `Losses ${opts.withContent ? 'include' : 'exclude'} building contents.`,
          'Full method: Documents > Climate Methodology in the application.',
        ],
      },
      {
        kind: 'table',
        x: 6.0,
        y: 1.7,
        w: 6.9,
        h: 5.2,
        size: 8,
        header: ['Dataset', 'Publisher, licence'],
        colW: [2.6, 4.3],
        rows: d.project.data_sources.map((s) => [s.name, `${s.publisher}. ${s.license}`]),
      },
    ],
  };
}

/**
 * The slide report of a portfolio from its dashboard answer (the same numbers the dashboard shows): title, overview,
 * climate score, KPI cards, 20-year expected loss vs residual, heat map, top assets, one page per hazard, adaptation
 * recommendations for hazards scoring above 50, the perils not modelled, methodology and data sources.
 */
export function buildSlideDeck(d: DashboardAnswer, opts: DeckOptions): Deck {
  const f = d.filters;
  const scenarioYear = `${f.scenario_label}, ${f.year}`;
  const variant = opts.withContent ? 'With Content' : 'Without Content';
  const ctx: DeckContext = {
    d,
    opts,
    f,
    scenarioYear,
    variant,
    card: d.climate_risk_card_data,
    hazards: d.project.hazards,
    combined: d.combined_data,
    bars: d.overall_bar_chart,
  };
  const slides: Slide[] = [
    titleSlide(ctx),
    overviewSlide(ctx),
    ...countrySlides(ctx),
    climateScoreSlide(ctx),
    keyFiguresSlide(ctx),
    cvarSlide(ctx),
    heatMapSlide(ctx),
    topAssetsSlide(ctx),
    ...(ctx.combined ?? []).map((c) => hazardSlide(ctx, c)),
    recommendationsSlide(ctx),
    notModelledSlide(),
    methodologySlide(ctx),
  ];
  return {
    title: `${d.project.name}: physical climate risk report`,
    subject: `Physical climate risk, ${scenarioYear}, ${variant}`,
    footer: `${d.project.name} · ${scenarioYear} · ${variant} · methodology ${d.project.methodology_version}`,
    slides,
  };
}
