/** Stored engine results per project: one gzip blob per chunk of assets (see analysis/result-codec.ts). */
export const statements = [
  `create table analysis_results (
    project_id integer not null references projects(id) on delete cascade,
    chunk_start integer not null,
    chunk_count integer not null,
    data bytea not null,
    created_at timestamptz not null default now(),
    primary key (project_id, chunk_start)
  )`,
];
