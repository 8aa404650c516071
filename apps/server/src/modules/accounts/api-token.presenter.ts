import type { ApiToken } from '@crp/contracts';
import { iso } from './user.presenter.js';

/** A listed token row -> the answer: never the hash. */
export function presentApiToken(
  r: {
    id: number;
    name: string;
    hint: string;
    created_at: Date | string;
    last_used_at: Date | string | null;
    expires_at: Date | string;
    user_id: number;
    username: string;
  },
  now = Date.now(),
): ApiToken {
  return {
    id: r.id,
    name: r.name,
    hint: r.hint,
    user: { id: r.user_id, username: r.username },
    created_at: iso(r.created_at),
    last_used_at: r.last_used_at ? iso(r.last_used_at) : null,
    expires_at: iso(r.expires_at),
    expired: new Date(r.expires_at).getTime() <= now,
  };
}
