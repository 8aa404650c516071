/** Per-user Advanced Filter defaults (spec 001 §4) and a per-project summary written by the analysis. */
export const statements = [`alter table users add column default_filters jsonb`, `alter table projects add column summary jsonb`];
