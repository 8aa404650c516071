/** Builds the OpenAPI document from the route schemas. `npm run openapi` writes it to docs/openapi.json (committed). */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from '../app.js';
import { loadConfig, REPO_ROOT } from '../config.js';
import { openDatabase } from '../infra/db/database.js';

export const OPENAPI_FILE = join(REPO_ROOT, 'docs/openapi.json');

export async function generateOpenApi(): Promise<string> {
  const config = loadConfig({}, { LOG_LEVEL: 'silent', DATA_DIR: 'memory://', SEED_DEMO: false });
  const database = await openDatabase(config);
  const app = await buildApp(config, database);
  await app.ready();
  const doc = JSON.stringify(app.swagger(), null, 2) + '\n';
  await app.close();
  await database.close();
  return doc;
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  writeFileSync(OPENAPI_FILE, await generateOpenApi());
  console.log(`wrote ${OPENAPI_FILE}`);
}
