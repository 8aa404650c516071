/**
 * Upgrade requests (issue 37 item 1): a company on a tier without some sections asks for a higher tier from any locked
 * panel; the company's administrators and the installation's operators are told (notification and e-mail), an operator
 * grants it (operator page or `npm run admin -- grant-tier`) and the requester is told. At most one pending request per
 * company (the partial unique index: a second one is a 409, even when two arrive at once).
 */
export const statements = [
  `create table upgrade_requests (
    id serial primary key,
    company_id integer not null references companies(id) on delete cascade,
    requested_by integer references users(id) on delete set null,
    tier_from text not null,
    tier text not null,
    message text not null default '',
    status text not null default 'pending' check (status in ('pending', 'granted', 'declined')),
    created_at timestamptz not null default now(),
    decided_at timestamptz,
    decided_by text
  )`,
  `create unique index upgrade_requests_one_pending on upgrade_requests (company_id) where status = 'pending'`,
  `create index upgrade_requests_company on upgrade_requests (company_id, created_at desc)`,
];
