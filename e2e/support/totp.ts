import * as OTPAuth from 'otpauth';

const PERIOD_S = 30;

/**
 * TOTP codes for one secret (SHA-1, 6 digits, 30 s, as the server issues). The server accepts each
 * time step once, so every call returns a code for a later step than the previous one, waiting when needed.
 */
export function totpGenerator(secretBase32: string) {
  const totp = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: PERIOD_S, secret: OTPAuth.Secret.fromBase32(secretBase32) });
  let lastStep = -1;
  return async function nextCode(): Promise<string> {
    let current = Math.floor(Date.now() / 1000 / PERIOD_S);
    let target = Math.max(current, lastStep + 1);
    // The server accepts one step of drift; never ask for a code more than one step ahead.
    while (target > current + 1) {
      await new Promise((r) => setTimeout(r, 1000));
      current = Math.floor(Date.now() / 1000 / PERIOD_S);
      target = Math.max(current, lastStep + 1);
    }
    lastStep = target;
    return totp.generate({ timestamp: target * PERIOD_S * 1000 + 1000 });
  };
}
