#!/usr/bin/env node
/**
 * Runs a command under another Node.js major version, taken from the npm registry's official binary packages
 * (`node-<platform>-<arch>`, published by the Node.js project's `node` package), cached under
 * node_modules/.cache/node-<version>/. Used to check that the project runs and its tests pass on Node 24 as well as on
 * the machine's Node 20 (docs/decisions.md, "Node versions"):
 *
 *   node scripts/with-node.mjs 24 node scripts/test.mjs unit
 *   node scripts/with-node.mjs 24 npm start
 *
 * The command inherits the environment with the chosen runtime first on PATH, so `node`, `npm` and every child
 * process the command starts (servers, workers, parse children) run on it.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const [major, ...command] = process.argv.slice(2);
if (!/^\d+$/.test(major ?? '') || command.length === 0) {
  console.error('usage: node scripts/with-node.mjs <major version> <command> [args...]');
  process.exit(64);
}
const pkg = `node-${platform()}-${arch()}`;
const version = execFileSync('npm', ['view', `${pkg}@${major}`, 'version', '--json'], { encoding: 'utf8' });
const versions = [JSON.parse(version)].flat();
const latest = versions[versions.length - 1];
const home = join(ROOT, 'node_modules', '.cache', `node-${latest}`);
const bin = join(home, 'bin');
if (!existsSync(join(bin, 'node'))) {
  const tmp = `${home}.partial`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  const tgz = execFileSync('npm', ['pack', `${pkg}@${latest}`, '--silent', '--pack-destination', tmp], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop();
  execFileSync('tar', ['xzf', join(tmp, tgz), '-C', tmp]);
  rmSync(home, { recursive: true, force: true });
  renameSync(join(tmp, 'package'), home);
  rmSync(tmp, { recursive: true, force: true });
  if (!readdirSync(bin).includes('node')) throw new Error(`${pkg}@${latest} has no bin/node`);
}
// npm itself: the system's npm runs on whichever `node` is first on PATH (its shebang is `#!/usr/bin/env node`).
const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
console.error(`[with-node] ${execFileSync(join(bin, 'node'), ['--version'], { encoding: 'utf8' }).trim()} from ${pkg}@${latest}`);
const child = spawn(command[0], command.slice(1), { stdio: 'inherit', env, cwd: process.cwd() });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
