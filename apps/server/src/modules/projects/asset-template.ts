import { ASSET_FIELDS, CONSTRUCTION_CLASSES, type AssetField } from '@crp/contracts';
import { PROPERTY_TYPES } from '@crp/engine';
import * as XLSX from '@e965/xlsx';

/** An example asset, in the spec's column order (Hong Kong, the product's default map centre). */
const EXAMPLE: Record<string, string | number> = {
  name: 'Example: Harbour Office Tower (replace this row)',
  latitude: 22.2819,
  longitude: 114.1585,
  revenue: 12_500_000,
  construction_cost: 85_000_000,
  property_type: 'Office',
  area: 42_000,
  valuation: 310_000_000,
  stories: 38,
  solar_production: 'NA',
  wind_production: 'NA',
  hydro_production: 'NA',
  wheat_production: 'NA',
  rice_production: 'NA',
  maize_production: 'NA',
  fruit_production: 'NA',
  vegetable_production: 'NA',
  ownership: 100,
  flood_protection: 'NA',
  construction: 'concrete',
};

const headerOf = (f: AssetField) => (f.unit ? `${f.header} (${f.unit})` : f.header);

/** The upload template: an Assets sheet (headers with units, one example row) and an Instructions sheet. */
export function buildAssetTemplate(): Buffer {
  const fields = ASSET_FIELDS as readonly AssetField[];
  const assets = XLSX.utils.aoa_to_sheet([fields.map(headerOf), fields.map((f) => EXAMPLE[f.key] ?? 'NA')]);
  assets['!cols'] = fields.map((f) => ({ wch: Math.max(12, headerOf(f).length + 2) }));
  const instructions = XLSX.utils.aoa_to_sheet([
    ['How to fill in the Assets sheet'],
    ['Asset name and location (lat, long in decimal degrees, WGS84) are mandatory. Every other column may be left empty or NA.'],
    ['Empty cells and NA mean "not known"; 0 means zero. Money is in US dollars; 1,200,000 and 1.2M are both accepted.'],
    ['Optional columns are used only if you choose them when you upload; otherwise they are set to NA.'],
    ["Keep one row per asset and a unique name per asset. Up to your plan's asset limit per portfolio."],
    [],
    ['column', 'meaning', 'unit', 'mandatory', 'optional column'],
    ...fields.map((f) => [f.header, f.label, f.unit ?? '', f.required ? 'yes' : 'no', f.optional ? 'yes' : 'no']),
    [],
    ['property type (one of)'],
    ...PROPERTY_TYPES.map((p) => [p.label]),
    [],
    ['construction (one of; empty = unknown)'],
    ...CONSTRUCTION_CLASSES.map((c) => [c]),
  ]);
  instructions['!cols'] = [{ wch: 24 }, { wch: 60 }, { wch: 12 }, { wch: 10 }, { wch: 16 }];
  const wb = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(wb, assets, 'Assets');
  XLSX.utils.book_append_sheet(wb, instructions, 'Instructions');
  return XLSX.write(wb, { type: 'buffer', bookType: 'xlsx', compression: true }) as Buffer;
}
