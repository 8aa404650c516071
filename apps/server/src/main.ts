import { warmCountries, warmForward } from '@crp/geo';
import { defaultHazardLayers } from '@crp/hazards';
import { buildApp } from './app.js';
import { type Config, loadConfigOrExit } from './config.js';
import { startupFailureLine } from './lib/disk-full.js';
import { openDatabase } from './infra/db/database.js';
import { migrateToLatest } from './infra/db/migrate.js';
import { announceReleases } from './modules/help/release.service.js';
import { DEMO, seedDemo } from './seed.js';

const config = loadConfigOrExit();
const { database, app } = await prepare(config).catch((err: unknown) => {
  // A full disk is one line saying so, not a stack trace (issue 32); anything else keeps its stack.
  const line = startupFailureLine(err, config.DATABASE_URL ? `the data folder ${config.DATA_DIR} or the database` : `the data folder ${config.DATA_DIR}`);
  if (!line) throw err;
  console.error(line);
  process.exit(1);
});

/** Everything before listening: the database opened and migrated, the app built, releases, demo data, FAQ, companies. */
async function prepare(config: Config) {
  const database = await openDatabase(config);
  const applied = await migrateToLatest(database.db);
  const app = await buildApp(config, database);
  // The street basemap set in the app (its origins go into every answer's Content-Security-Policy).
  await app.services.basemap.load();
  if (applied.length) app.log.info({ applied }, 'migrations applied');
  const announced = await announceReleases(database.db, app.services.notifications);
  if (announced.length) app.log.info({ announced }, 'releases announced');
  if (config.SEED_DEMO) await seedDemo(app, database.db);
  await app.services.faq.seed(); // built-in FAQ content (content/faq.ts), inserted or updated by key
  await app.services.companies.ensureLoaded(); // listed companies for the company search (migration 0011), once per data version
  return { database, app };
}

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  await app.services.maps.stopPrerender();
  await app.services.jobs.stop();
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.listen({ port: config.PORT, host: config.HOST });
// Jobs run in this process unless RUN_JOBS_IN_PROCESS=false (with PostgreSQL, `npm run worker` processes share them).
// Started once listening: after a crash, the recovered analysis must not keep /api/health from answering.
if (config.RUN_JOBS_IN_PROCESS ?? true) app.services.jobs.start();
// Load the gazetteer and the hazard layers after listening, so the first map click, search, hazard query or small
// analysis does not wait for them (large analyses read the layers in the engine's worker threads only).
setImmediate(() => {
  warmCountries();
  warmForward();
  setImmediate(() => {
    defaultHazardLayers().then(
      () => {
        if (config.DASHBOARD_WARM_ON_START) warmDashboards().catch((err: unknown) => app.log.warn({ err }, 'dashboards not decoded at start-up'));
        if (config.MAP_PRERENDER_WORLD)
          prerenderWorldTiles().catch((err: unknown) => app.log.warn({ err }, 'world-view map tiles not pre-rendered: they are rendered when asked'));
      },
      (err: unknown) => app.log.warn({ err }, 'hazard layers not loaded at start-up'),
    );
  });
});
/** The most recently analysed projects decoded for the dashboard, in the background (DashboardService.warmRecent). */
async function warmDashboards() {
  const t0 = Date.now();
  const projects = await app.services.dashboard.warmRecent();
  if (projects.length) app.log.info({ projects, ms: Date.now() - t0 }, 'dashboards decoded at start-up');
}
/** World-view map tiles (zooms 0-4) of every dataset, in the background: from their packs when stored, else rendered. */
async function prerenderWorldTiles() {
  const t0 = Date.now();
  const n = await app.services.maps.prerenderWorld();
  if (closing) return; // ended by the shutdown
  const r = await app.services.maps.renderer();
  app.log.info({ rendered: n, ms: Date.now() - t0, packsRead: r.world?.stats.packsRead, bytes: r.world?.stats.bytes }, 'world-view map tiles ready');
}
const base = `http://localhost:${(app.server.address() as { port: number }).port}`;
const lines = [
  '',
  `  Climate Risk Platform is running at ${base}`,
  `  Database: ${database.kind}${database.kind === 'pglite' ? ` (${config.DATA_DIR})` : ''}`,
  `  API docs: ${base}/docs`,
];
if (config.SEED_DEMO) {
  lines.push(`  Demo login: username ${DEMO.username} / password ${DEMO.password} / company code ${DEMO.companyCode}`);
}
console.log(lines.join('\n') + '\n');
