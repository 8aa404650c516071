import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** 256-bit random token, URL-safe. Only its SHA-256 is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a);
  const bb = Buffer.from(b);
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/** Letters and digits that cannot be confused when read aloud or typed (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Company code: 10 characters from a 31-letter alphabet (~49 bits), shown as XXXXX-XXXXX. */
export function newCompanyCode(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

/** Company codes are compared without case, spaces or dashes, so "abcde fghij" finds ABCDE-FGHIJ. */
export function normaliseCompanyCode(code: string): string {
  const c = code.toUpperCase().replace(/[\s-]/g, '');
  return c.length === 10 ? `${c.slice(0, 5)}-${c.slice(5)}` : c;
}

export function sixDigitCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** Recovery code length in characters of CODE_ALPHABET: 16 x log2(31) = 79 bits. */
const RECOVERY_CODE_CHARS = 16;

/** A 2FA recovery code, shown as XXXX-XXXX-XXXX-XXXX (79 random bits). */
export function newRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < RECOVERY_CODE_CHARS; i++) s += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return s.match(/.{4}/g)!.join('-');
}

/** A typed recovery code as stored: upper case, without spaces or dashes; null when it cannot be one. */
export function normaliseRecoveryCode(code: string): string | null {
  const c = code.toUpperCase().replace(/[\s-]/g, '');
  return c.length === RECOVERY_CODE_CHARS && [...c].every((ch) => CODE_ALPHABET.includes(ch)) ? c : null;
}

/** 16 random bytes, hex: the per-code salt of a recovery code's hash. */
export function newSalt(): string {
  return randomBytes(16).toString('hex');
}
