/** Carbon and transition module (issue 9): a transition project's portfolio value and its company rows. */
export const statements = [
  `create table carbon_portfolios (
    project_id integer primary key references projects(id) on delete cascade,
    portfolio_value double precision not null check (portfolio_value > 0),
    updated_at timestamptz not null default now()
  )`,
  `create table carbon_companies (
    id serial primary key,
    project_id integer not null references projects(id) on delete cascade,
    position integer not null,
    company_name text not null,
    investment_in_usd double precision not null check (investment_in_usd > 0),
    market_cap_in_usd double precision not null check (market_cap_in_usd > 0),
    revenue_in_usd double precision not null check (revenue_in_usd > 0),
    scope_1_and_2_ghg_emission double precision check (scope_1_and_2_ghg_emission is null or scope_1_and_2_ghg_emission >= 0),
    region text not null,
    sector text not null,
    unique (project_id, position)
  )`,
];
