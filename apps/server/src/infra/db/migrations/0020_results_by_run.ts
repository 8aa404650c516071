/**
 * Result chunks keyed by run (issue 22): a finished analysis is made current by one small UPDATE of the project's
 * `results_version`, not by copying every blob from analysis_staging into analysis_results inside the swap
 * transaction (at 100,000 assets that copy held PGlite, and with it the server's event loop, for minutes).
 *
 *   analysis_chunks   every chunk of every run, keyed by (project, version, chunk_start), written as it is computed
 *                     (with its share of the project summary); runs other than the current one are deleted after the
 *                     swap, in small batches, off the critical path.
 *   projects.results_version   the version whose chunks are the project's results (null: none yet).
 *   analysis_results  now a view: the current run's chunks, with the columns the table had.
 *
 * The old analysis_results rows become version 0 (project versions start at 1), the current run of their project.
 * Chunks staged by an unfinished run move to analysis_chunks; analysis_staging is no longer written.
 */
export const statements = [
  `alter table analysis_results rename to analysis_chunks`,
  `alter table analysis_chunks rename constraint analysis_results_pkey to analysis_chunks_pkey`,
  `alter table analysis_chunks add column version integer not null default 0`,
  `alter table analysis_chunks alter column version drop default`,
  `alter table analysis_chunks add column summary jsonb`,
  `alter table analysis_chunks add column attempt integer`,
  `alter table analysis_chunks drop constraint analysis_chunks_pkey`,
  `alter table analysis_chunks add primary key (project_id, version, chunk_start)`,
  `alter table projects add column results_version integer`,
  `update projects set results_version = 0 where exists (select 1 from analysis_chunks c where c.project_id = projects.id)`,
  `insert into analysis_chunks (project_id, version, chunk_start, chunk_count, data, summary, part, worker_id, attempt)
    select project_id, version, chunk_start, chunk_count, data, summary, part, worker_id, attempt from analysis_staging`,
  `delete from analysis_staging`,
  `create view analysis_results as
    select c.project_id, c.chunk_start, c.chunk_count, c.data, c.created_at, c.worker_id, c.part
    from analysis_chunks c join projects p on p.id = c.project_id and p.results_version = c.version`,
];
