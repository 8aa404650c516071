/**
 * Published flood datasets (issue 34 item 2): `npm run hazards:register -- DIR [--name NAME]`, `--list`,
 * `--remove NAME`. Registers a directory of WRI Aqueduct Floods or JRC global flood maps (GeoTIFF/COG, named as
 * published) for every company's analyses: each file's name and header are checked (EPSG:4326, tiling, nodata,
 * scale) and only the registration is stored in the database; the files are read by window where assets fall, so the
 * directory must stay where it is and be readable by every server and job worker (README, "Published flood maps").
 * Same configuration as the server (DATA_DIR or DATABASE_URL); with PGlite, stop the server first.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { openDatabase } from './infra/db/database.js';
import { migrateToLatest } from './infra/db/migrate.js';
import { PublishedDatasetService, RegistrationError } from './modules/published/published-datasets.service.js';

const USAGE = `Usage: npm run hazards:register -- DIR [--name NAME]   register (or re-register) a directory of published flood maps
       npm run hazards:register -- --list                 list the registered datasets
       npm run hazards:register -- --remove NAME          remove a registration (the files stay)

File names as published: WRI Aqueduct Floods v2 (inunriver_rcp8p5_00000NorESM1-M_2050_rp00100.tif,
inuncoast_historical_nosub_hist_rp0100_0.tif, ...) or JRC (floodMapGL_rp100y.tif, ID14_N49_W130_RP100_depth.tif).
`;

class UsageError extends Error {}

const gib = (b: number) =>
  b >= 1_073_741_824 ? `${(b / 1_073_741_824).toFixed(2)} GiB` : b >= 1_048_576 ? `${(b / 1_048_576).toFixed(1)} MiB` : `${(b / 1024).toFixed(1)} KiB`;

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { name: { type: 'string' }, list: { type: 'boolean' }, remove: { type: 'string' }, help: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const modes = [values.list, values.remove !== undefined, positionals.length > 0].filter(Boolean).length;
  if (modes !== 1) throw new UsageError('give one DIR, or --list, or --remove NAME');
  if (positionals.length > 1) throw new UsageError(`one DIR only (got ${positionals.length})`);
  if (values.name !== undefined && positionals.length === 0) throw new UsageError('--name goes with a DIR');
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await migrateToLatest(database.db);
    const svc = new PublishedDatasetService(database.db);
    if (values.list) {
      const list = await svc.list();
      if (list.length === 0) console.log('(no published dataset registered)');
      for (const d of list)
        console.log(
          `${d.name}: ${d.file_count} file(s), ${gib(d.bytes)}, ${d.hazards.join(' + ')}, ${d.scenarios.join(', ')}, return periods ${d.return_periods_years.join(', ')} y; ${d.directory} (registered ${d.registered_at} by ${d.registered_by})`,
        );
      return 0;
    }
    if (values.remove !== undefined) {
      const r = await svc.remove(values.remove);
      console.log(`removed '${values.remove}'; ${r.reanalysed} portfolio(s) queued for analysis without it`);
      return 0;
    }
    const r = await svc.register(positionals[0]!, values.name, process.env.USER ? `cli:${process.env.USER}` : 'cli');
    const d = r.dataset;
    console.log(
      `${r.replaced ? 're-registered' : 'registered'} '${d.name}': ${d.file_count} file(s), ${gib(d.bytes)} (read by window, not copied), ${d.hazards.join(' + ')}, ${d.scenarios.join(', ')}, return periods ${d.return_periods_years.join(', ')} y; ${r.reanalysed} portfolio(s) queued for analysis`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof RegistrationError) {
      console.error(`error: nothing registered; ${err.problems.length} problem(s):\n${err.problems.map((p) => `  - ${p}`).join('\n')}`);
      process.exit(2);
    }
    if (err instanceof UsageError || (err instanceof Error && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))) {
      console.error(`error: ${err.message}\n\n${USAGE}`);
      process.exit(2);
    }
    if (err instanceof Error && 'statusCode' in err && (err as { statusCode: number }).statusCode === 404) {
      console.error(`error: ${err.message}`);
      process.exit(2);
    }
    console.error(err);
    process.exit(1);
  },
);
