import type { HazardKey, OwnLayer } from '@crp/contracts';
import type { OwnHazardLayerRow } from '../../infra/db/schema.js';

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());
const r6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** An own layer as the API shows it: its metadata, never the bytes nor a server path. */
export function presentOwnLayer(
  row: Omit<OwnHazardLayerRow, 'data' | 'pixels' | 'x0' | 'y0' | 'res_x' | 'res_y'> & { uploaded_by_username: string | null },
): OwnLayer {
  return {
    id: row.id,
    hazard: row.hazard as HazardKey,
    scenario: row.scenario,
    year: row.year,
    return_period_years: row.return_period_years,
    unit: row.unit,
    label: row.label,
    source: row.source,
    filename: row.filename,
    bytes: row.bytes,
    decoded_bytes: row.width * row.height * 4,
    crs: row.crs,
    width: row.width,
    height: row.height,
    bounds: { west: r6(row.west), south: r6(row.south), east: r6(row.east), north: r6(row.north) },
    resolution_km: Math.round(row.resolution_km * 1000) / 1000,
    valid_pixels: row.valid_pixels,
    value_min: r6(row.value_min),
    value_max: r6(row.value_max),
    sha256: row.sha256,
    uploaded_by: row.uploaded_by_username,
    created_at: iso(row.created_at),
  };
}
