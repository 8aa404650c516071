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
