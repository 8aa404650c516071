#!/usr/bin/env node
// `npm start`: installs what is missing, builds the web app when its sources changed, then runs the server,
// which migrates the database, seeds the demo data and serves the app and API on http://localhost:8080 (PORT overrides).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';
import { supervise } from './supervise.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
process.chdir(root);
ensureDeps();

function newest(dir) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const p = join(dir, name);
    const s = statSync(p);
    t = Math.max(t, s.isDirectory() ? newest(p) : s.mtimeMs);
  }
  return t;
}

const distIndex = join(root, 'apps/web/dist/index.html');
const sourcesTime = Math.max(newest(join(root, 'apps/web')), newest(join(root, 'packages/contracts/src')));
if (!existsSync(distIndex) || statSync(distIndex).mtimeMs < sourcesTime) {
  console.log('[start] building the web app...');
  const b = spawnSync('npm', ['run', 'build', '-w', '@crp/web', '--silent'], { stdio: 'inherit' });
  if (b.status !== 0) process.exit(b.status ?? 1);
}

// Restarted after a crash it could not prevent; Ctrl-C (SIGINT) and SIGTERM stop it without a restart (supervise.mjs).
process.exit(await supervise('apps/server/src/main.ts'));
