/** Map projects (issue 11): the map-specific fields of a `projects` row of kind 'map' (spec 001 §3.8). */
export const statements = [
  `create table map_projects (
    project_id integer primary key references projects(id) on delete cascade,
    address text not null default '',
    latitude double precision not null check (latitude between -85 and 85),
    longitude double precision not null check (longitude between -180 and 180),
    distance_km integer not null check (distance_km in (1, 3, 5)),
    variable text not null check (variable in ('Rainfall Flood', 'Storm Surge', 'Wildfire')),
    duration_data jsonb not null default '[]'::jsonb,
    country_code text,
    subregion text
  )`,
];
