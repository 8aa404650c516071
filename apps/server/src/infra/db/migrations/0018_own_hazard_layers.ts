/**
 * A company's own hazard layers (issue 23 item 3): GeoTIFFs uploaded by a company administrator, checked on upload,
 * kept in the database (so backups and every worker have them) and used only in that company's analyses.
 */
export const statements = [
  `create table own_hazard_layers (
    id serial primary key,
    company_id integer not null references companies(id) on delete cascade,
    hazard text not null,
    scenario text check (scenario in ('26', '45', '85')),
    year integer check (year between 2020 and 2100),
    return_period_years integer check (return_period_years between 1 and 10000),
    unit text not null,
    label text not null,
    source text not null default '',
    filename text not null,
    bytes integer not null,
    sha256 text not null,
    crs text not null,
    width integer not null,
    height integer not null,
    west double precision not null,
    south double precision not null,
    east double precision not null,
    north double precision not null,
    resolution_km double precision not null,
    valid_pixels integer not null,
    value_min double precision not null,
    value_max double precision not null,
    data bytea not null,
    uploaded_by integer references users(id) on delete set null,
    created_at timestamptz not null default now()
  )`,
  // one layer per hazard, scenario, year and return period in a company ('any' scenario/year count as their own key)
  `create unique index own_hazard_layers_key on own_hazard_layers (company_id, hazard, coalesce(scenario, 'any'), coalesce(year, 0), coalesce(return_period_years, 0))`,
];
