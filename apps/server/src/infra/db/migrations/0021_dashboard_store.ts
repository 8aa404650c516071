/**
 * The dashboard store of large analyses (issue 22 item 3/4: the dashboard at 1,000,000 assets). An analysis too large
 * to decode in the server's memory (RESULTS_DECODE_MAX_MB) is summarised once, chunk batch by chunk batch, into what
 * the dashboard reads (modules/dashboard/large-store.ts):
 *
 *   dashboard_stores   one row per project and results version: building / done / failed, progress, and when done the
 *                      whole portfolio's aggregates (series, bar sums, money sums, means; a deflated JSON text).
 *   dashboard_slices   per scenario-year job and batch of assets: each asset's CVaRs, climate scores and hazard scores
 *                      at that scenario-year (deflated typed arrays), so a query reads one year, not the analysis.
 */
export const statements = [
  `create table dashboard_stores (
    project_id integer not null references projects(id) on delete cascade,
    version integer not null,
    state text not null,
    progress real not null default 0,
    owner text,
    message text,
    assets integer not null default 0,
    aggregates bytea,
    updated_at timestamptz not null default now(),
    primary key (project_id, version)
  )`,
  `create table dashboard_slices (
    project_id integer not null references projects(id) on delete cascade,
    version integer not null,
    job smallint not null,
    batch_start integer not null,
    batch_count integer not null,
    data bytea not null,
    primary key (project_id, version, job, batch_start)
  )`,
];
