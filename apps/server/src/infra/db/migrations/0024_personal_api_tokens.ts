/**
 * Personal API tokens (issue 32 item 3): long-lived, read-only tokens for QGIS, GDAL and notebooks. Only the SHA-256 of
 * a token is stored (like auth_tokens); `hint` is its first 12 characters (`crp_pat_` and four random ones) so a user
 * can tell tokens apart. A revoked token keeps its row (revoked_at) for the record; deleting the user removes them.
 */
export const statements = [
  `create table personal_api_tokens (
    id serial primary key,
    user_id integer not null references users(id) on delete cascade,
    name text not null check (length(name) between 1 and 100),
    token_hash text not null unique,
    hint text not null,
    created_at timestamptz not null default now(),
    last_used_at timestamptz,
    expires_at timestamptz not null,
    revoked_at timestamptz
  )`,
  `create index personal_api_tokens_user on personal_api_tokens (user_id) where revoked_at is null`,
];
