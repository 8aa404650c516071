/**
 * Dashboard store slices are stored as they are, no longer deflated (modules/dashboard/large-store-compute.ts
 * encodeSlice): per-asset CVaRs as Float32 barely compress, and inflating a job's 58 MB cost about 135 ms of CPU on
 * every query of a scenario-year not yet read, while PostgreSQL sends 58 MB by binary COPY as fast as 25 MB (about
 * 150 ms here). EXTERNAL: out of line without PostgreSQL's own compression, which would cost the same CPU again.
 * Slices stored deflated before this keep being read (the reader tells them by their size).
 */
export const statements = [`alter table dashboard_slices alter column data set storage external`];
