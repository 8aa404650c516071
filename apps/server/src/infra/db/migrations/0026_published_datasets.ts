/**
 * Published flood datasets (issue 34 item 2): an operator registers a directory of WRI Aqueduct Floods or JRC global
 * flood maps (`npm run hazards:register -- DIR` or the operator page); only the registration is stored here (the
 * directory, and per file its path, what its name says and its header: grid, tiling, tile offsets, nodata, scale).
 * The pixels stay in the files and are read by window. `users.is_operator` marks the installation's operators
 * (`npm run admin -- set-operator`), the only users who may register or remove a dataset through the API.
 */
export const statements = [
  `create table published_datasets (
    id serial primary key,
    name text not null unique check (length(name) between 1 and 100),
    directory text not null,
    files jsonb not null,
    file_count integer not null,
    bytes bigint not null,
    registered_at timestamptz not null default now(),
    registered_by text not null
  )`,
  `alter table users add column is_operator boolean not null default false`,
];
