/**
 * The organisation's own text of a portfolio's TCFD report (issue 23 item 6): the governance, risk-integration and
 * targets notes and the linked carbon analysis, one row per physical project, on the server rather than in one
 * browser's local storage, so colleagues with access see and print the same report.
 */
export const statements = [
  `create table tcfd_narratives (
    project_id integer primary key references projects(id) on delete cascade,
    governance_board text not null default '',
    governance_management text not null default '',
    risk_integration text not null default '',
    targets text not null default '',
    carbon_analysis text,
    updated_by integer references users(id) on delete set null,
    updated_at timestamptz not null default now()
  )`,
];
