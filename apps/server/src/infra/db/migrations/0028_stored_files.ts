/**
 * File contents in the database (issue 36 item 5): with DATABASE_URL set, the bytes of generated files (exports, slide
 * and PDF reports, map workbooks) live here instead of under the DATA_DIR of whichever process made them, so every
 * server and worker machine serves every link. `files` stays the link table (owner, token hash, expiry: permission
 * checks unchanged); `stored_files` is one row per content (`key` = files.stored_as) and `stored_file_chunks` its bytes
 * in 1 MiB bytea rows, so neither a write nor a read holds a whole file (infra/file-store.ts PostgresFileStorage, and
 * docs/decisions.md for why rows rather than large objects). The chunks are already compressed formats (xlsx, pptx and
 * PDF are zip or deflate): stored `external`, PostgreSQL does not try to compress them again.
 */
export const statements = [
  `create table stored_files (
    key text primary key,
    bytes integer not null,
    sha256 text not null,
    content_type text not null,
    chunk_bytes integer not null,
    created_at timestamptz not null default now()
  )`,
  `create table stored_file_chunks (
    key text not null references stored_files(key) on delete cascade,
    seq integer not null,
    data bytea not null,
    primary key (key, seq)
  )`,
  `alter table stored_file_chunks alter column data set storage external`,
  `alter table files add column sha256 text`,
];
