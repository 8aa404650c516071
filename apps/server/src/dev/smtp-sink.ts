/**
 * A local SMTP server that accepts every message and writes it to a folder (one .json per message).
 * Developers point SMTP_URL at it to read mail; the tests run it as a real separate process.
 * Usage: tsx src/dev/smtp-sink.ts [port] [folder]   (prints "SMTP_SINK_READY <port>" when listening)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

const port = Number(process.argv[2] ?? 2525);
const dir = process.argv[3] ?? './.data/mail';
mkdirSync(dir, { recursive: true });
let n = 0;

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  size: 1_000_000,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const subject = /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '';
      const to = session.envelope.rcptTo.map((r) => r.address);
      n += 1;
      writeFileSync(join(dir, `${Date.now()}-${String(n).padStart(5, '0')}.json`), JSON.stringify({ to, subject, raw }));
      callback();
    });
  },
});
server.listen(port, '127.0.0.1', () => {
  const address = server.server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  console.log(`SMTP_SINK_READY ${actual}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
