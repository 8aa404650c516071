/**
 * Real-estate property risk (issue 10): a property-risk project is a `projects` row of kind 'realestate' with its
 * locations in `assets`; each location's ring and its computed row (spec 001 §3.7) live here.
 */
export const statements = [
  `create table property_risk_sites (
    asset_id integer primary key references assets(id) on delete cascade,
    project_id integer not null references projects(id) on delete cascade,
    min_distance_km double precision not null check (min_distance_km >= 0),
    max_distance_km double precision not null check (max_distance_km > min_distance_km),
    result jsonb,
    computed_at timestamptz
  )`,
  `create index property_risk_sites_project_idx on property_risk_sites (project_id)`,
];
