import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './server';

export interface SinkMessage {
  to: string[];
  subject: string;
  raw: string;
}

/** The project's SMTP sink (apps/server/src/dev/smtp-sink.ts) as its own process; messages land in a temp folder. */
export async function startMailSink(): Promise<{ url: string; messages(): SinkMessage[]; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'crp-e2e-mail-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'apps/server/src/dev/smtp-sink.ts'), '0', dir], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
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

/** A message's body, quoted-printable decoded (long lines such as a link are soft-wrapped). */
export function bodyOf(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n');
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
