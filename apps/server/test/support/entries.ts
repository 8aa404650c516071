import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { REPO_ROOT } from '../../src/config.js';

/** The server's process entries that tests start as processes of their own, by their name in the test bundle. */
const SOURCES = {
  main: 'apps/server/src/main.ts',
  worker: 'apps/server/src/worker.ts',
  admin: 'apps/server/src/admin.ts',
  'hazards-register': 'apps/server/src/hazards-register.ts',
  'smtp-sink': 'apps/server/src/dev/smtp-sink.ts',
} as const;

/**
 * The node arguments that run one of the server's entries (`node <these> [args]`, from the repository root): the
 * JavaScript bundle built once per test run by scripts/build-server-bundle.mjs when `npm test` built one (it names the
 * folder in CRP_SERVER_BUNDLE; the same code, about 3 CPU-seconds less per process start than tsx compiling the
 * sources), else the TypeScript source through tsx (a test file run on its own, `node --import tsx --test <file>`).
 */
export function serverEntryArgs(entry: keyof typeof SOURCES): string[] {
  const dir = process.env.CRP_SERVER_BUNDLE;
  if (dir) {
    const file = join(isAbsolute(dir) ? dir : join(REPO_ROOT, dir), `${entry}.mjs`);
    if (existsSync(file)) return [file];
  }
  return ['--import', 'tsx', SOURCES[entry]];
}
