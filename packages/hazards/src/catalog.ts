/** The layer catalogue: every built-in layer with the hazards that use it and its sources, then the own layers. */
import { HAZARD_INDICATORS, HAZARD_KEYS, OWN_DATA_TIER } from '@crp/contracts';
import type { ByoRegistry } from './byo.js';
import { HAZARD_META } from './models/index.js';
import { RPS, type CatalogEntry, type Layer, type Manifest } from './types.js';

export function layerCatalog(manifest: Manifest, layers: Iterable<Layer>, byo: ByoRegistry): CatalogEntry[] {
  const res: CatalogEntry[] = [];
  const usedBy = (ln: string) => HAZARD_KEYS.filter((k) => HAZARD_META[k].layers.includes(ln));
  for (const { e } of layers) {
    const hz = usedBy(e.name);
    const main = hz[0];
    const ind = main ? HAZARD_INDICATORS[main] : null;
    res.push({
      hazard: hz.length === 1 ? main! : 'shared',
      layer: e.name,
      indicator: ind && hz.length === 1 ? ind.indicator : e.description,
      unit: e.unit,
      description: `${e.description}${hz.length ? ` (used by ${hz.join(', ')})` : ''}`,
      grid: e.grid,
      resolutionKm: e.resolutionKm,
      scenarios: ['SSP1-2.6', 'SSP2-4.5', 'SSP5-8.5', 'RCP2.6', 'RCP4.5', 'RCP8.5'],
      years: [2020, 2100],
      returnPeriodsYears: e.name === 'typhoon_rp' ? [...RPS] : null,
      tier: main ? HAZARD_META[main].tier : null,
      sources: e.datasets.map((k) => ({ key: k, ...manifest.datasets[k]! })),
      sha256: e.sha256,
      bytesGz: e.bytesGz ?? null,
      kind: 'built-in',
    });
  }
  for (const b of byo.entries()) {
    res.push({
      hazard: b.entry.hazard,
      layer: b.entry.id,
      indicator: b.entry.indicator ?? HAZARD_INDICATORS[b.entry.hazard].indicator,
      unit: HAZARD_INDICATORS[b.entry.hazard].unit,
      description: b.entry.label ?? b.entry.file ?? b.entry.id,
      grid: b.grid,
      resolutionKm: b.resolutionKm,
      scenarios: b.entry.scenario ? [b.entry.scenario] : ['any'],
      years: b.entry.year ? [b.entry.year, b.entry.year] : [2020, 2100],
      returnPeriodsYears: b.entry.returnPeriodYears ? [b.entry.returnPeriodYears] : null,
      tier: OWN_DATA_TIER,
      sources: [
        {
          key: b.entry.id,
          name: b.entry.label ?? b.entry.file ?? b.entry.id,
          publisher: b.entry.publisher ?? 'user supplied',
          license: b.entry.license ?? 'user supplied',
          citation: b.entry.citation ?? '',
          origin: b.entry.file ?? 'uploaded',
        },
      ],
      sha256: b.sha256,
      bytesGz: null,
      kind: 'byo',
    });
  }
  return res;
}
