/** Generated files behind expiring links. */
export const statements = [
  `create table files (
    id serial primary key,
    token_hash text not null unique,
    owner_id integer not null references users(id) on delete cascade,
    stored_as text not null,
    filename text not null,
    content_type text not null,
    bytes integer not null,
    expires_at timestamptz not null,
    created_at timestamptz not null default now()
  )`,
];
