#!/usr/bin/env node
// Installs npm dependencies when node_modules is missing or package-lock.json changed since the last install.
// Uses only Node built-ins so it can run on a fresh clone.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lock = join(root, 'package-lock.json');
const stamp = join(root, 'node_modules', '.deps-stamp');

export function ensureDeps() {
  const want = createHash('sha256').update(readFileSync(lock)).digest('hex');
  const have = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : '';
  if (want === have) return false;
  // A fresh clone gets the exact lock (npm ci); an existing tree is updated in place (npm install), which does not
  // delete node_modules under programs that are running from it.
  const fresh = !existsSync(join(root, 'node_modules'));
  console.log(`[deps] installing npm packages (${fresh ? 'npm ci' : 'npm install'})...`);
  execSync(fresh ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
  writeFileSync(stamp, want);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) ensureDeps();
