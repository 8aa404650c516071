/**
 * Scale-out of one analysis over several workers (issue 13 item 4): a large analysis is planned as a run of parts
 * (ranges of 500-asset chunks), each part a job any worker may claim. Parts write their chunks into
 * analysis_staging keyed by (project, version, chunk_start), so a retried part overwrites its own rows; the part
 * that completes the set swaps the staged chunks into analysis_results in one transaction.
 * analysis_parts records which worker analysed which chunks, on which attempt.
 */
export const statements = [
  `create table analysis_runs (
    project_id integer not null references projects(id) on delete cascade,
    version integer not null,
    total_assets integer not null,
    chunks integer not null,
    parts integer not null,
    reused_assets integer not null default 0,
    planned_by text,
    created_at timestamptz not null default now(),
    finished_at timestamptz,
    primary key (project_id, version)
  )`,
  `create table analysis_parts (
    project_id integer not null,
    version integer not null,
    part integer not null,
    chunk_from integer not null,
    chunk_to integer not null,
    chunks integer not null,
    assets integer not null,
    status text not null default 'queued',
    job_id integer,
    worker_id text,
    attempt integer not null default 0,
    assets_done integer not null default 0,
    compute_ms integer,
    started_at timestamptz,
    finished_at timestamptz,
    primary key (project_id, version, part),
    foreign key (project_id, version) references analysis_runs (project_id, version) on delete cascade
  )`,
  `create table analysis_staging (
    project_id integer not null,
    version integer not null,
    chunk_start integer not null,
    chunk_count integer not null,
    data bytea not null,
    summary jsonb not null,
    part integer,
    worker_id text,
    attempt integer,
    primary key (project_id, version, chunk_start),
    foreign key (project_id, version) references analysis_runs (project_id, version) on delete cascade
  )`,
  `alter table analysis_results add column worker_id text`,
  `alter table analysis_results add column part integer`,
];
