/** Shared fixtures of the server benches: the same deterministic portfolio and an enterprise tier with every section. */
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { openDatabase, type DB } from '../src/infra/db/database.js';
import { migrateToLatest } from '../src/infra/db/migrate.js';

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32). */
export function rng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` assets at deterministic random points between 60 S and 60 N, six property types, values and revenues. */
export function benchPortfolio(n: number, seed = 42) {
  const r = rng(seed);
  const types = ['Office', 'Warehouse', 'Retail', 'Manufacture', 'Residential', 'Hotel'];
  return Array.from({ length: n }, (_, i) => ({
    name: `Asset ${i + 1}`,
    latitude: Math.round((r() * 120 - 60) * 1e4) / 1e4,
    longitude: Math.round((r() * 360 - 180) * 1e4) / 1e4,
    property_type: types[i % types.length]!,
    valuation: Math.round(1e6 + r() * 1e8),
    revenue: Math.round(r() * 2e7),
  }));
}

/** Puts companies (all, or the one with `code`) on the enterprise tier with every dashboard section allowed. */
export async function enterpriseTier(db: DB, code?: string): Promise<void> {
  let q = db
    .updateTable('companies')
    .set({
      tier: 'enterprise',
      assets_allowed: 1_000_000,
      tier_permissions: JSON.stringify({
        asset_level_risk_map: true,
        climate_variable_intensity: true,
        climate_heatmap: true,
        portfolio_losses: true,
        rcp_year_loss_bars: true,
        asset_table: true,
      }),
    });
  if (code !== undefined) q = q.where('code', '=', code);
  await q.execute();
}

/** Opens and migrates the database of `config`, builds the app and listens on a free loopback port. */
export async function startBenchApp(config: Config, options: { jobs: boolean }) {
  const database = await openDatabase(config);
  await migrateToLatest(database.db);
  const app = await buildApp(config, database);
  await app.listen({ port: 0, host: '127.0.0.1' });
  if (options.jobs) app.services.jobs.start();
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  return { app, database, base };
}
