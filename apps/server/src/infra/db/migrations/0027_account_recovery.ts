/**
 * Account recovery (issue 37 item 6). `password_reset_tokens`: a link e-mailed by "Forgot password?" (ASVS V2.5): only
 * the SHA-256 of the 32 random bytes is stored, it expires 30 minutes after it was made, is used once (used_at), and a
 * new request retires the user's older unused ones. `mfa_recovery_codes`: the ten single-use codes made when 2FA is
 * turned on (ASVS V2.6): each stored as SHA-256 of a random per-code salt and the code (80 random bits), used_at once
 * used; generating new ones deletes the old set. Deleting the user removes both. `notifications.ref`: what a
 * notification is about (`member:<user id>` for a join request), so the administrators' "New member waiting for
 * approval" notifications are marked read once any administrator decides the request instead of coming back at every login.
 */
export const statements = [
  `create table password_reset_tokens (
    id serial primary key,
    user_id integer not null references users(id) on delete cascade,
    token_hash text not null unique,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    used_at timestamptz
  )`,
  `create index password_reset_tokens_user on password_reset_tokens (user_id) where used_at is null`,
  `create table mfa_recovery_codes (
    id serial primary key,
    user_id integer not null references users(id) on delete cascade,
    salt text not null,
    code_hash text not null,
    created_at timestamptz not null default now(),
    used_at timestamptz
  )`,
  `create index mfa_recovery_codes_user on mfa_recovery_codes (user_id) where used_at is null`,
  `alter table notifications add column ref text`,
  `create index notifications_ref on notifications (ref) where ref is not null and read_at is null`,
];
