import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '../../src/config.js';
import { serverEntryArgs } from './entries.js';

/** One message the sink received. */
export interface SinkMessage {
  to: string[];
  subject: string;
  raw: string;
}

/**
 * The project's SMTP sink (apps/server/src/dev/smtp-sink.ts) as its own process (from the test bundle when there is
 * one, entries.ts); messages land in a temp folder. Used by the server tests (harness.ts) and the browser tests
 * (e2e/support/mail.ts): this module imports nothing of the server but its config, so a browser test can load it.
 */
export async function startSmtpSink(): Promise<{ url: string; messages(): SinkMessage[]; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'crp-mail-'));
  const child: ChildProcess = spawn(process.execPath, [...serverEntryArgs('smtp-sink'), '0', dir], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('SMTP sink did not start')), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      const m = /SMTP_SINK_READY (\d+)/.exec(d.toString());
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.on('exit', (code) => reject(new Error(`SMTP sink exited with ${code}`)));
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages: () =>
      readdirSync(dir)
        .sort()
        .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as SinkMessage),
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
