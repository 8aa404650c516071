/**
 * Listed companies for the company search (spec 000 §3 company-search hit, issue 5): loaded from the committed
 * constituent data of @crp/geo at start-up, searched with PostgreSQL full-text (prefix) and trigram (typo) matching.
 * `record` keeps the whole source record so a hit is rebuilt exactly; `source_version` says which data is loaded.
 */
export const statements = [
  `create extension if not exists pg_trgm`,
  `create table listed_companies (
    id serial primary key,
    ticker text not null,
    codes text[] not null default '{}',
    company_name text not null,
    name_norm text not null,
    indices text[] not null default '{}',
    record jsonb not null,
    search tsvector generated always as (to_tsvector('simple', name_norm)) stored
  )`,
  `create index listed_companies_search_idx on listed_companies using gin (search)`,
  `create index listed_companies_name_trgm_idx on listed_companies using gin (name_norm gin_trgm_ops)`,
  `create index listed_companies_indices_idx on listed_companies using gin (indices)`,
  `create index listed_companies_ticker_idx on listed_companies (upper(ticker))`,
  `create table listed_companies_source (
    id integer primary key default 1 check (id = 1),
    source_version text not null,
    loaded_at timestamptz not null default now()
  )`,
];
