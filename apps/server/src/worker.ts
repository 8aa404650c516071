/**
 * `npm run worker`: a job worker process (portfolio analyses, reports). With DATABASE_URL set, any number of workers
 * on any machines claim jobs from the same PostgreSQL `jobs` table (FOR UPDATE SKIP LOCKED) and share the load; run
 * the server with RUN_JOBS_IN_PROCESS=false to leave all jobs to them. The embedded PGlite database belongs to one
 * process, so there jobs run inside `npm start` instead.
 */
import { defaultHazardLayers } from '@crp/hazards';
import pino from 'pino';
import { EXIT_CONFIG, loadConfigOrExit } from './config.js';
import { openDatabase } from './infra/db/database.js';
import { migrateToLatest } from './infra/db/migrate.js';
import { createServices } from './compose.js';

const config = loadConfigOrExit();
if (!config.DATABASE_URL) {
  console.error('npm run worker needs DATABASE_URL (a PostgreSQL server). With the embedded database, jobs run inside `npm start`.');
  process.exit(EXIT_CONFIG);
}
const log = pino({ level: config.LOG_LEVEL === 'silent' ? 'silent' : config.LOG_LEVEL, base: { role: 'worker' } });
const database = await openDatabase(config);
await migrateToLatest(database.db);
const services = createServices(database, config, log, { warmDashboard: false });
// Load the hazard layers before claiming jobs, so a worker's first part is not slowed by it.
await defaultHazardLayers();
services.jobs.start();
log.info({ worker: services.jobs.workerId, concurrency: config.JOB_CONCURRENCY }, 'worker started');

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'worker stopping after the jobs in hand');
  await services.jobs.stop();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
