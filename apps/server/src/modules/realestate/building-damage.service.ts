import { SCENARIOS, type ConstructionClass, type ScenarioCode } from '@crp/contracts';
import {
  assetDamageCurves,
  prepareAsset,
  buildingDamageCurves,
  propertyTypeOf,
  SCENARIO_YEARS,
  scenarioYearKey,
  type AssetInput,
  type ScenarioYear,
  EXPLORER_BASEMENT,
  EXPLORER_CONSTRUCTION,
  EXPLORER_OCCUPANCY,
  EXPLORER_STORIES,
  EXPLORER_VALUE_PER_SQ_M,
} from '@crp/engine';
import { z } from 'zod';
import type { AuthUser } from '../../lib/auth-context.js';
import { notFound } from '../../lib/errors.js';
import type { AssetRow } from '../../infra/db/schema.js';
import type { ProjectAccessPolicy } from '../access/project-access.policy.js';
import { assetInputOf } from '../analysis/analysis.jobs.js';
import { createHazardProvider, prefetchPublished } from '../analysis/hazard-provider.js';
import type { OwnLayerService } from '../own-layers/own-layer.service.js';
import type { PublishedDatasetService } from '../published/published-datasets.service.js';

const STORIES_ERROR = `stories must be a whole number of storeys 1 to 300, or one of ${EXPLORER_STORIES.join(', ')}`;

/** The building-damage explorer's request (the choices are the engine's explorer bands). */
export const BuildingDamageBody = z.object({
  project_name: z.string().trim().max(150).optional(),
  asset_name: z.string().trim().max(200).optional(),
  year: z.coerce
    .number({ error: 'year must be a number' })
    .int('year must be a whole year')
    .min(2020, 'year must be 2020 to 2100')
    .max(2100, 'year must be 2020 to 2100')
    .default(2050),
  analysis_type: z.enum(['rcp', 'ssp'], { error: 'analysis_type must be rcp or ssp' }).default('ssp'),
  // Left out, each selector takes the named asset's own value (unknown without an asset): the explorer opens on the building.
  basement: z.enum(EXPLORER_BASEMENT, { error: `basement must be one of ${EXPLORER_BASEMENT.join(', ')}` }).optional(),
  construction: z.enum(EXPLORER_CONSTRUCTION, { error: `construction must be one of ${EXPLORER_CONSTRUCTION.join(', ')}` }).optional(),
  stories: z
    .preprocess(
      (v) => (typeof v === 'number' ? String(v) : v),
      z
        .string({ error: STORIES_ERROR })
        .trim()
        .refine((v) => (EXPLORER_STORIES as readonly string[]).includes(v) || (/^\d{1,3}$/.test(v) && +v >= 1 && +v <= 300), STORIES_ERROR),
    )
    .optional(),
  occupancy: z.enum(EXPLORER_OCCUPANCY, { error: `occupancy must be one of ${EXPLORER_OCCUPANCY.join(', ')}` }).optional(),
  per_sq_m_value: z.coerce
    .number({ error: 'per_sq_m_value must be a number' })
    .refine(
      (v) => (EXPLORER_VALUE_PER_SQ_M as readonly number[]).includes(v),
      `per_sq_m_value must be one of ${EXPLORER_VALUE_PER_SQ_M.join(', ')} (the upper bound of the band)`,
    )
    .optional(),
});

export type BuildingDamageBody = z.infer<typeof BuildingDamageBody>;

/** The explorer's choices, every one set. */
export interface ExplorerInputs {
  basement: (typeof EXPLORER_BASEMENT)[number];
  construction: (typeof EXPLORER_CONSTRUCTION)[number];
  stories: string;
  occupancy: (typeof EXPLORER_OCCUPANCY)[number];
  per_sq_m_value: number;
}
const UNKNOWN: ExplorerInputs = { basement: 'unknown', construction: 'unknown', stories: 'unknown', occupancy: 'unknown', per_sq_m_value: 5000 };

/** The engine's construction class of an explorer choice ('light metal': the Hazus steel pre-engineered metal building). */
const CLASS_OF: Record<(typeof EXPLORER_CONSTRUCTION)[number], ConstructionClass | null> = {
  wood: 'wood',
  concrete: 'concrete',
  masonry: 'masonry',
  'mobile home': 'manufactured',
  'light metal': 'steel',
  steel: 'steel',
  unknown: null,
};
/** The property type the analysis reads for an occupancy chosen in the explorer (other than the asset's own). */
const TYPE_OF: Record<(typeof EXPLORER_OCCUPANCY)[number], string | null> = {
  residential: 'Residential',
  commercial: 'Commercial',
  industrial: 'Industrial',
  unknown: null,
};

/** A stories choice as a number of storeys (NaN unknown; '3 or more' is 3). */
const storeys = (s: string) => (s === 'unknown' ? Number.NaN : s === '3 or more' ? 3 : Number(s));

/** The explorer's bands of a stored asset: what the explorer opens with for it. */
export function assetExplorerInputs(row: AssetRow): ExplorerInputs {
  const jrc = propertyTypeOf(row.property_type).jrc;
  const floors = row.stories !== null && row.stories >= 1 ? Math.round(row.stories) : null;
  const floorArea = row.area !== null && row.area > 0 ? row.area * Math.max(1, floors ?? 1) : null;
  const value = row.construction_cost ?? row.valuation;
  const perSqM = value !== null && floorArea ? value / floorArea : null;
  return {
    basement: row.basement === null ? 'unknown' : row.basement ? 'yes' : 'no',
    construction: row.construction === null ? 'unknown' : row.construction === 'manufactured' ? 'mobile home' : row.construction,
    stories: floors === null ? 'unknown' : String(Math.min(300, floors)),
    occupancy: jrc === 'residential' || jrc === 'commercial' || jrc === 'industrial' ? jrc : 'unknown',
    per_sq_m_value: perSqM === null ? 5000 : (EXPLORER_VALUE_PER_SQ_M.find((b) => b >= perSqM) ?? EXPLORER_VALUE_PER_SQ_M[EXPLORER_VALUE_PER_SQ_M.length - 1]!),
  };
}

/**
 * The asset as the analysis reads it (analysis.jobs.ts assetInputOf) with the explorer's choices applied: a choice equal
 * to the asset's own band keeps the asset's exact value (its 40 storeys, its property type), so the explorer's EAD is
 * the dashboard's for the building as stored.
 */
export function explorerAssetInput(row: AssetRow, chosen: ExplorerInputs, own: ExplorerInputs): AssetInput {
  const a = assetInputOf(row);
  if (chosen.basement !== own.basement) a.basement = chosen.basement === 'unknown' ? null : chosen.basement === 'yes';
  if (storeys(chosen.stories) !== storeys(own.stories) && !(Number.isNaN(storeys(chosen.stories)) && Number.isNaN(storeys(own.stories)))) {
    const n = storeys(chosen.stories);
    a.floors = Number.isNaN(n) ? null : n;
  }
  if (chosen.occupancy !== own.occupancy) a.type = TYPE_OF[chosen.occupancy];
  if (chosen.construction !== own.construction) a.construction = CLASS_OF[chosen.construction];
  return a;
}

/** The scenario-year of the analysis for a scenario and year (the baseline year is one for every scenario). */
function scenarioYearOf(analysisType: 'rcp' | 'ssp', scenario: ScenarioCode, year: number): ScenarioYear {
  const key = year === 2020 ? scenarioYearKey('baseline', null, 2020) : scenarioYearKey(analysisType, scenario, year);
  return SCENARIO_YEARS.find((s) => s.key === key) ?? { analysisType, scenario, year, key };
}

/** Building-damage explorer: depth-damage curves, or the damage of a named asset at its site's return periods. */
export class BuildingDamageService {
  constructor(
    private readonly policy: ProjectAccessPolicy,
    /** The company's own hazard layers, applied to the asset's site as its analysis applies them. */
    private readonly own?: Pick<OwnLayerService, 'registryForProject'>,
    /** The installation's published flood maps, read where they cover the site as the analysis reads them. */
    private readonly published?: Pick<PublishedDatasetService, 'current'>,
  ) {}

  async curves(caller: AuthUser, b: BuildingDamageBody) {
    const pick = (base: ExplorerInputs): ExplorerInputs => ({
      basement: b.basement ?? base.basement,
      construction: b.construction ?? base.construction,
      stories: b.stories ?? base.stories,
      occupancy: b.occupancy ?? base.occupancy,
      per_sq_m_value: b.per_sq_m_value ?? base.per_sq_m_value,
    });
    if (!(b.project_name && b.asset_name)) {
      const inputs = pick(UNKNOWN);
      return { ...buildingDamageCurves({ ...inputs }), inputs, asset: false };
    }
    const row = await this.policy.visibleAssetByName(caller, b.project_name, b.asset_name);
    if (!row) throw notFound(`asset_name: no asset '${b.asset_name}' in a project '${b.project_name}' you can see.`);
    await this.policy.require(caller, row.project_id, 'view');
    const own = assetExplorerInputs(row);
    const inputs = pick(own);
    const input = explorerAssetInput(row, inputs, own);
    const registry = this.own ? await this.own.registryForProject(row.project_id) : null;
    const published = (await this.published?.current()) ?? null;
    const provider = createHazardProvider({ own: registry, published });
    const at = b.analysis_type;
    const year = at === 'rcp' ? Math.min(b.year, 2100) : b.year;
    const sys = Object.fromEntries(SCENARIOS.map((sc) => [sc, scenarioYearOf(at, sc, year)])) as Record<ScenarioCode, ScenarioYear>;
    await prefetchPublished(published, [input], Object.values(sys));
    const curves = assetDamageCurves(input, sys, provider, inputs.per_sq_m_value);
    return {
      ...curves,
      // no Hazus occupancy: the curves are the analysis's (JRC), named in `source`
      hazus_occupancy: '',
      first_floor_height_m: prepareAsset(input).plinthHeightM,
      source:
        "the analysis's own building flood damage for this asset (JRC depth-damage curve of its region and occupancy, scaled by storeys and basement, from its plinth height) at its site's return periods; the EAD is the dashboard's (after the standard of flood protection, before adaptation). Construction sets the typhoon wind curve, not flood damage",
      inputs,
      asset: true,
    };
  }
}
