/**
 * Builds the small context files of the map module from the staged open data (run once; outputs are committed):
 * - data/map/population_density_1deg.bin.gz: GPW v4.11 2020 population count per 1° cell (CIESIN 2018, CC BY 4.0)
 *   divided by the cell's area, people/km², float32, 360 x 180, north-up from 90° N, -180° E; NaN where no data.
 * - data/map/gdp_latest.json: World Bank WDI NY.GDP.MKTP.CD (current US$, CC BY 4.0), latest year per ISO3 code.
 * Usage: tsx scripts/build-map-data.ts [shared data dir, default ../../../shared/data]
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const src = resolve(process.argv[2] ?? join(here, '../../../../shared/data'));
const out = join(here, '../data/map');
mkdirSync(out, { recursive: true });

const asc = readFileSync(join(src, 'gpw-v4-population-1deg/gpw_v4_population_count_rev11_2020_1_deg.asc'), 'utf8').split('\n');
const rows = asc.slice(6).filter((l) => l.trim() !== '');
if (rows.length !== 180) throw new Error(`expected 180 rows, got ${rows.length}`);
const dens = new Float32Array(360 * 180);
const R = 6371.0088; // mean Earth radius, km
for (let r = 0; r < 180; r++) {
  const vals = rows[r]!.trim().split(/\s+/).map(Number);
  if (vals.length !== 360) throw new Error(`row ${r}: ${vals.length} columns`);
  const latN = ((90 - r) * Math.PI) / 180,
    latS = ((89 - r) * Math.PI) / 180;
  const areaKm2 = R * R * (Math.PI / 180) * (Math.sin(latN) - Math.sin(latS));
  for (let c = 0; c < 360; c++) {
    const v = vals[c]!;
    dens[r * 360 + c] = v === -9999 ? NaN : v / areaKm2;
  }
}
writeFileSync(join(out, 'population_density_1deg.bin.gz'), gzipSync(Buffer.from(dens.buffer), { level: 9 }));

const gdp: Record<string, { year: number; value: number }> = {};
for (const line of readFileSync(join(src, 'worldbank_gdp_population/gdp_current_usd.csv'), 'utf8').split('\n').slice(1)) {
  const m = /^(?:"[^"]*"|[^,]*),([A-Z0-9]{3}),(\d{4}),([0-9.eE+-]+)\s*$/.exec(line);
  if (!m) continue;
  const [, iso3, y, v] = m;
  const year = Number(y),
    value = Number(v);
  if (!Number.isFinite(value)) continue;
  if (!gdp[iso3!] || gdp[iso3!]!.year < year) gdp[iso3!] = { year, value: Math.round(value) };
}
writeFileSync(join(out, 'gdp_latest.json'), JSON.stringify(gdp) + '\n');
console.log(`population density grid and GDP for ${Object.keys(gdp).length} codes written to ${out}`);
