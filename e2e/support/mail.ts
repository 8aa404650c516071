export { startSmtpSink as startMailSink, type SinkMessage } from '../../apps/server/test/support/smtp-sink';

/** A message's body, quoted-printable decoded (long lines such as a link are soft-wrapped). */
export function bodyOf(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n');
  return body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
