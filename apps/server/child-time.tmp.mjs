import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
const entry = '/work/main/apps/server/src/lib/parse-child.ts';
const mods = process.argv.slice(2).map((m) => pathToFileURL(m).href);
const t0 = process.cpuUsage(); const w0 = Date.now();
const p = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), entry, ...mods], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
p.once('message', () => { console.log('ready after', Date.now() - w0, 'ms'); p.kill(); });
p.on('exit', () => { const r = require; });
