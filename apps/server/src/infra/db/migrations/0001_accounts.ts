/** Accounts, companies, tokens, 2FA codes, login throttling, notifications, outbox, demo requests, audit log. */
export const statements = [
  `create table companies (
    id serial primary key,
    name text not null,
    code text not null unique,
    tier text not null default 'free',
    assets_allowed integer not null,
    allowed_modules jsonb not null,
    tier_permissions jsonb not null,
    created_at timestamptz not null default now()
  )`,
  `create table users (
    id serial primary key,
    company_id integer not null references companies(id) on delete cascade,
    username text not null,
    username_lower text not null,
    email text not null,
    first_name text not null,
    last_name text not null,
    password_hash text not null,
    status text not null check (status in ('active', 'pending', 'rejected')),
    is_company_admin boolean not null default false,
    twofa_method text check (twofa_method in ('app', 'email')),
    totp_secret text,
    totp_pending_secret text,
    totp_last_step bigint,
    data_edit_permissions jsonb not null,
    last_accessed_at timestamptz,
    last_accessed_path text,
    created_at timestamptz not null default now(),
    unique (company_id, username_lower)
  )`,
  `create table auth_tokens (
    id serial primary key,
    user_id integer not null references users(id) on delete cascade,
    token_hash text not null unique,
    created_at timestamptz not null default now(),
    last_used_at timestamptz not null default now(),
    expires_at timestamptz not null,
    revoked_at timestamptz
  )`,
  `create table email_codes (
    id serial primary key,
    user_id integer not null references users(id) on delete cascade,
    purpose text not null check (purpose in ('mfa_setup', 'login')),
    code_hash text not null,
    attempts integer not null default 0,
    expires_at timestamptz not null,
    used_at timestamptz,
    created_at timestamptz not null default now()
  )`,
  `create index email_codes_user_idx on email_codes (user_id, purpose, created_at)`,
  `create table login_attempts (
    id serial primary key,
    username_lower text not null,
    client text not null,
    succeeded boolean not null,
    created_at timestamptz not null default now()
  )`,
  `create index login_attempts_user_idx on login_attempts (username_lower, created_at)`,
  `create index login_attempts_client_idx on login_attempts (client, created_at)`,
  `create table notifications (
    id serial primary key,
    user_id integer not null references users(id) on delete cascade,
    title text not null,
    message text not null,
    notification_type text not null,
    link text,
    created_at timestamptz not null default now(),
    read_at timestamptz
  )`,
  `create index notifications_user_idx on notifications (user_id, read_at)`,
  `create table releases_announced (
    version text primary key,
    announced_at timestamptz not null default now()
  )`,
  `create table page_visits (
    id serial primary key,
    user_id integer not null references users(id) on delete cascade,
    path text not null,
    accessed_at timestamptz not null default now()
  )`,
  `create index page_visits_user_idx on page_visits (user_id, accessed_at)`,
  `create table outbox_emails (
    id serial primary key,
    to_address text not null,
    subject text not null,
    text_body text not null,
    transport text not null,
    status text not null,
    error text,
    created_at timestamptz not null default now()
  )`,
  `create table demo_requests (
    id serial primary key,
    name text not null,
    email text not null,
    company text not null,
    role text,
    message text,
    client text not null,
    created_at timestamptz not null default now()
  )`,
  `create table audit_log (
    id serial primary key,
    company_id integer references companies(id) on delete cascade,
    user_id integer references users(id) on delete set null,
    action text not null,
    detail jsonb not null default '{}'::jsonb,
    client text,
    created_at timestamptz not null default now()
  )`,
  `create index audit_log_company_idx on audit_log (company_id, created_at)`,
];
