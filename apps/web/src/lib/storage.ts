import { STORAGE_KEYS, TIER_DATA_UPDATED_EVENT, TierData } from '@crp/contracts';

/** Session values kept in localStorage under the spec's keys (spec 000 §3, §9). */

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // storage unavailable (private mode, quota): the session lives only in memory
  }
}

export function readToken(): string | null {
  const t = read(STORAGE_KEYS.token);
  return t && t.trim() ? t : null;
}

export function readUserId(): number | null {
  const raw = read(STORAGE_KEYS.userId);
  const n = raw === null ? NaN : Number(raw);
  return Number.isInteger(n) && n > 0 ? n : null;
}

/** Tier data from storage; anything that does not parse as tier data is treated as none (spec 000 §6). */
export function readTierData(): TierData | null {
  const raw = read(STORAGE_KEYS.tierData);
  if (!raw) return null;
  try {
    const parsed = TierData.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Stores tier data and broadcasts the tier-data-updated event so the sidebar reloads it. */
export function writeTierData(tierData: TierData | null): void {
  write(STORAGE_KEYS.tierData, tierData ? JSON.stringify(tierData) : null);
  window.dispatchEvent(new Event(TIER_DATA_UPDATED_EVENT));
}

export function writeSession(session: { token: string; userId: number; tierData: TierData }): void {
  write(STORAGE_KEYS.token, session.token);
  write(STORAGE_KEYS.userId, String(session.userId));
  writeTierData(session.tierData);
}

export function clearSession(): void {
  write(STORAGE_KEYS.token, null);
  write(STORAGE_KEYS.userId, null);
  writeTierData(null);
}

/** Small UI preferences that are not part of the spec's storage keys. */
export function readPreference(key: string): string | null {
  return read(`crp.${key}`);
}

export function writePreference(key: string, value: string): void {
  write(`crp.${key}`, value);
}

/** Set when a session ended by itself (idle time-out, lifetime, revoked elsewhere): the login page says so. */
const SESSION_ENDED_KEY = 'crp.session_ended';

export function markSessionEnded(): void {
  try {
    window.sessionStorage.setItem(SESSION_ENDED_KEY, '1');
  } catch {
    // storage unavailable: the login page shows no message
  }
}

export function sessionEnded(): boolean {
  try {
    return window.sessionStorage.getItem(SESSION_ENDED_KEY) === '1';
  } catch {
    return false;
  }
}

export function clearSessionEnded(): void {
  try {
    window.sessionStorage.removeItem(SESSION_ENDED_KEY);
  } catch {
    // nothing to clear
  }
}

/** When this browser last made a call that counts as use of the session (shared by its tabs). */
const LAST_ACTIVITY_KEY = 'crp.last_activity';

export function touchActivity(): void {
  write(LAST_ACTIVITY_KEY, String(Date.now()));
}

export function lastActivity(): number | null {
  const n = Number(read(LAST_ACTIVITY_KEY));
  return Number.isFinite(n) && n > 0 ? n : null;
}
