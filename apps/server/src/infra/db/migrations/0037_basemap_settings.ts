/**
 * The street basemap set by an operator in the app (issue 37 item 4; docs/maps.md "Basemap"): one row at most. When
 * there is none, the server's environment (BASEMAP_STYLE_URL, BASEMAP_PMTILES) is the default.
 *  - style_url: a MapLibre style JSON (http(s) URL, or a path on this server starting with /), or null;
 *  - pmtiles: an OpenStreetMap vector-tile archive (http(s) URL, or a .pmtiles file on the server), or null;
 *  - labels: draw street and place names (glyphs served by this server) over a pmtiles archive.
 */
export const statements = [
  `create table basemap_settings (
    id integer primary key check (id = 1),
    style_url text,
    pmtiles text,
    labels boolean not null default true,
    updated_at timestamptz not null default now(),
    updated_by text not null
  )`,
];
