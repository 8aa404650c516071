/**
 * Own hazard layers stored decoded (issue 32): `pixels` holds the checked raster as little-endian Float32, row-major,
 * NaN where there is no value, already in the hazard's unit, with the grid it lies on (`x0`, `y0`: top-left corner,
 * `res_x`, `res_y`: pixel size, in the units of `crs`). Loading a layer copies these bytes: it never inflates or
 * parses a GeoTIFF again, and its size (width × height × 4) is known before it is read, so a company's layers count
 * against a byte budget. The uploaded file (`data`) is no longer kept: nothing but the loader read it. Rows stored
 * before this are decoded once, in a parse child with the bounded decoders, the first time their company's layers are
 * loaded, and rewritten (modules/own-layers/own-layer.service.ts).
 */
export const statements = [
  `alter table own_hazard_layers alter column data drop not null`,
  `alter table own_hazard_layers add column pixels bytea`,
  `alter table own_hazard_layers add column x0 double precision`,
  `alter table own_hazard_layers add column y0 double precision`,
  `alter table own_hazard_layers add column res_x double precision`,
  `alter table own_hazard_layers add column res_y double precision`,
  // Float32 barely compresses and PostgreSQL's compression would cost CPU on every load (as dashboard_slices, 0022)
  `alter table own_hazard_layers alter column pixels set storage external`,
  `alter table own_hazard_layers add constraint own_hazard_layers_stored check (pixels is not null or data is not null)`,
];
