/** Slide reports (issue 8): one row per requested report, filled in by the report job. */
export const statements = [
  `create table reports (
    id serial primary key,
    token_hash text not null unique,
    owner_id integer not null references users(id) on delete cascade,
    project_id integer not null references projects(id) on delete cascade,
    analysis_type text,
    with_content boolean not null default true,
    status text not null default 'queued',
    message text,
    pdf_file_id integer references files(id) on delete set null,
    pptx_file_id integer references files(id) on delete set null,
    slides integer,
    created_at timestamptz not null default now(),
    finished_at timestamptz
  )`,
  `create index reports_project_idx on reports (project_id)`,
];
