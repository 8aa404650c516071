import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import * as m0001 from './migrations/0001_accounts.js';
import * as m0002 from './migrations/0002_projects.js';
import * as m0003 from './migrations/0003_analysis_results.js';
import * as m0004 from './migrations/0004_filters_summary.js';
import * as m0005 from './migrations/0005_files.js';
import * as m0006 from './migrations/0006_faq.js';
import * as m0007 from './migrations/0007_reports.js';
import * as m0008 from './migrations/0008_carbon.js';
import * as m0009 from './migrations/0009_maps.js';
import * as m0010 from './migrations/0010_realestate.js';
import * as m0011 from './migrations/0011_listed_companies.js';
import * as m0012 from './migrations/0012_analysis_parts.js';
import * as m0013 from './migrations/0013_flood_protection.js';
import * as m0014 from './migrations/0014_download_link_hours.js';
import * as m0018 from './migrations/0018_own_hazard_layers.js';
import * as m0019 from './migrations/0019_tcfd_narratives.js';
import * as m0020 from './migrations/0020_results_by_run.js';
import * as m0021 from './migrations/0021_dashboard_store.js';
import * as m0022 from './migrations/0022_dashboard_slices_raw.js';
import * as m0023 from './migrations/0023_own_layers_decoded.js';
import * as m0024 from './migrations/0024_personal_api_tokens.js';
import * as m0025 from './migrations/0025_construction_class.js';
import * as m0026 from './migrations/0026_published_datasets.js';
import * as m0027 from './migrations/0027_account_recovery.js';
import * as m0028 from './migrations/0028_stored_files.js';
import * as m0029 from './migrations/0029_upgrade_requests.js';
import * as m0032 from './migrations/0032_valuation_denominator.js';
import * as m0036 from './migrations/0036_report_scenario_year.js';
import * as m0037 from './migrations/0037_basemap_settings.js';

/** Forward-only migrations, in order. Each is a list of SQL statements run in one transaction. */
const MIGRATIONS: Record<string, { statements: string[] }> = {
  '0001_accounts': m0001,
  '0002_projects': m0002,
  '0003_analysis_results': m0003,
  '0004_filters_summary': m0004,
  '0005_files': m0005,
  '0006_faq': m0006,
  '0007_reports': m0007,
  '0008_carbon': m0008,
  '0009_maps': m0009,
  '0010_realestate': m0010,
  '0011_listed_companies': m0011,
  '0012_analysis_parts': m0012,
  '0013_flood_protection': m0013,
  '0014_download_link_hours': m0014,
  '0018_own_hazard_layers': m0018,
  '0019_tcfd_narratives': m0019,
  '0020_results_by_run': m0020,
  '0021_dashboard_store': m0021,
  '0022_dashboard_slices_raw': m0022,
  '0023_own_layers_decoded': m0023,
  '0024_personal_api_tokens': m0024,
  '0025_construction_class': m0025,
  '0026_published_datasets': m0026,
  '0027_account_recovery': m0027,
  '0028_stored_files': m0028,
  '0029_upgrade_requests': m0029,
  '0032_valuation_denominator': m0032,
  '0036_report_scenario_year': m0036,
  '0037_basemap_settings': m0037,
};

class StaticProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {};
    for (const [name, mod] of Object.entries(MIGRATIONS)) {
      out[name] = {
        async up(db: Kysely<any>) {
          for (const s of mod.statements) await sql.raw(s).execute(db);
        },
      };
    }
    return out;
  }
}

/** The migrations this code knows, in order. */
export function migrationNames(): string[] {
  return Object.keys(MIGRATIONS).sort();
}

export function migrationProvider(): MigrationProvider {
  return new StaticProvider();
}

export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new StaticProvider() });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
