import {
  DATA_EDIT_PERMISSIONS,
  MODULES,
  TIER_SECTIONS,
  type DataEditPermission,
  type ModuleKey,
  type Tier,
  type TierData,
  type TierSection,
} from '@crp/contracts';
import type { CompanyRow } from '../../infra/db/schema.js';
import type { UsersRepository } from './users.repository.js';

const all = <K extends string>(keys: readonly K[], on: boolean) => Object.fromEntries(keys.map((k) => [k, on])) as Record<K, boolean>;

/**
 * What each subscription tier unlocks (decision recorded in docs/decisions.md).
 * free: physical risk + map, 100 assets, no financial sections; professional: all modules, 2,000 assets;
 * enterprise: everything, 100,000 assets.
 */
export const TIER_DEFAULTS: Record<Tier, { modules: ModuleKey[]; assets: number; sections: Record<TierSection, boolean> }> = {
  free: { modules: ['physical_risk', 'map'], assets: 100, sections: { ...all(TIER_SECTIONS, true), portfolio_losses: false, rcp_year_loss_bars: false } },
  professional: { modules: [...MODULES], assets: 2_000, sections: all(TIER_SECTIONS, true) },
  enterprise: { modules: [...MODULES], assets: 100_000, sections: all(TIER_SECTIONS, true) },
};

export function tierColumns(tier: Tier, overrides: { assets?: number; modules?: ModuleKey[] } = {}) {
  const d = TIER_DEFAULTS[tier];
  return {
    tier,
    assets_allowed: overrides.assets ?? d.assets,
    allowed_modules: JSON.stringify(overrides.modules ?? d.modules),
    tier_permissions: JSON.stringify(d.sections),
  };
}

export function tierDataOf(company: CompanyRow): TierData {
  const modules = (company.allowed_modules as string[]).filter((m): m is ModuleKey => (MODULES as readonly string[]).includes(m));
  const perms = company.tier_permissions as Record<string, boolean>;
  return {
    tier: (company.tier as Tier) ?? 'free',
    allowed_modules: modules,
    tier_permissions: Object.fromEntries(TIER_SECTIONS.map((s) => [s, perms[s] === true])) as Record<TierSection, boolean>,
    assets_allowed: company.assets_allowed,
  };
}

export function defaultDataEditPermissions(): Record<DataEditPermission, boolean> {
  return all(DATA_EDIT_PERMISSIONS, true);
}

/**
 * The tier section that holds every money figure of an analysis (losses, CVaR, maximum exposure, 1-in-100/250-year
 * losses): a tier without it sees scores and maps only, on every surface (dashboard, project card, exports, slide
 * reports, results API), not only on the dashboard (issue 37 item 1).
 */
export const MONEY_SECTION: TierSection = 'portfolio_losses';

/** Whether the company's tier shows money figures. */
export const moneyAllowed = (company: CompanyRow | undefined): boolean => !!company && tierDataOf(company).tier_permissions[MONEY_SECTION];

/**
 * A figure a locked tier must not see: a loss, a CVaR (USD or %), an avoided loss or the maximum exposure. The asset
 * values the user gave (valuation, exposed value, total asset value) are the user's own and stay, and so do scores (a
 * `loss_score` is a band of the loss ratio, like `score`, not a money figure: the Free plan includes scores).
 */
export const isMoneyFigure = (key: string): boolean => /loss|cvar|max_exposure|maximum exposure/i.test(key) && !/score/i.test(key);

/** The row with every money figure set to null (the results API, exports): a locked tier's copy. */
export function withholdMoney<T extends object>(row: T): T {
  const out = { ...row } as Record<string, unknown>;
  for (const k of Object.keys(out)) if (isMoneyFigure(k)) out[k] = null;
  return out as T;
}

/** Told wherever money figures are withheld (export About sheet, results API `money_withheld`). */
export const MONEY_WITHHELD =
  'Losses (the 20-year expected loss among them) are not part of the Free plan: money columns are empty. Scores, bands and hazard intensities are included. Ask for an upgrade in the app (any locked panel: "Request upgrade").';

/** Looks up whether a company sees money figures (its tier can change at any time: read each time). */
export class TierGate {
  constructor(private readonly users: Pick<UsersRepository, 'companyById'>) {}
  async moneyAllowed(companyId: number): Promise<boolean> {
    return moneyAllowed(await this.users.companyById(companyId));
  }
}
