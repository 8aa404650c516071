/**
 * Derives the regional winter-mean warming at the global warming levels (+1.5/+2/+3/+4 °C vs 1850-1900) from the CMIP6
 * monthly regional-mean near-surface air temperature of the IPCC WGI AR6 Atlas repository (Iturbide et al. 2021,
 * doi:10.5281/zenodo.3691645; `datasets-aggregated-regionally/data/CMIP6/CMIP6_tas_landsea`, one run per model, CC BY 4.0),
 * and writes `packages/hazards/data/atlas-winter-tas.json` (read by build-layers.ts buildParams and build-winter-params.ts).
 *
 * Method (the same windows as the staged CMIP6 TNn table of Hauser, used by AR6 WGI Ch. 11): per model, the 20-year
 * window in which its SSP5-8.5 run first reaches each warming level (`cmip6_warming_level_years_one_ens.csv`, staged in
 * cmip6_regional_extremes_ar6/gsat_by_ssp_period), the region's winter mean in that window minus its 1850-1900 winter
 * mean; the multi-model median per region and level. Winter = DJF or JJA, whichever is colder in the region's
 * 1850-1900 multi-model climatology (JJA for the southern regions). Also writes, for validation, the Interactive-Atlas
 * style summary: winter change 2081-2100 vs 1995-2014 under SSP5-8.5, median and 10th-90th percentile over models.
 *
 * Run: ATLAS_TAS_DIR=<checkout with data/CMIP6_tas_landsea> npx tsx packages/hazards/scripts/derive-winter-warming.ts
 * (a git directory is read with `git show HEAD:<path>`). The copy used: github traupach/warming_levels @96313bef
 * (data/CMIP6_tas_landsea, a copy of the Atlas files).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rawDir } from './lib/io.js';

const GWLS = [1.5, 2, 3, 4];
const here = fileURLToPath(new URL('.', import.meta.url));
const OUT = join(here, '..', 'data', 'atlas-winter-tas.json');

function reader(root: string) {
  const isGit = !existsSync(join(root, 'data')) && existsSync(join(root, 'HEAD'));
  const list = isGit
    ? execFileSync('git', ['-C', root, 'ls-tree', '--name-only', 'HEAD', 'data/CMIP6_tas_landsea/'], { encoding: 'utf8', maxBuffer: 1 << 24 })
        .split('\n')
        .filter(Boolean)
    : execFileSync('ls', [join(root, 'data/CMIP6_tas_landsea')], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((f) => `data/CMIP6_tas_landsea/${f}`);
  const read = (p: string) =>
    isGit ? execFileSync('git', ['-C', root, 'show', `HEAD:${p}`], { encoding: 'utf8', maxBuffer: 1 << 26 }) : readFileSync(join(root, p), 'utf8');
  return { list, read };
}

interface Series {
  regions: string[];
  /** year -> month (1-12) -> values per region */
  byYm: Map<number, (number[] | undefined)[]>;
}
function parse(text: string, into?: Series): Series {
  const lines = text.split('\n').filter((l) => l && !l.startsWith('#'));
  const regions = lines[0]!
    .split(',')
    .slice(1)
    .map((s) => s.replace(/"/g, ''));
  const s = into ?? { regions, byYm: new Map() };
  for (const l of lines.slice(1)) {
    const parts = l.split(',');
    const [y, m] = parts[0]!.replace(/"/g, '').split('-').map(Number) as [number, number];
    if (!s.byYm.has(y)) s.byYm.set(y, new Array(13));
    s.byYm.get(y)![m] = parts.slice(1).map(Number);
  }
  return s;
}
/** Mean over years [y0, y1] of the given months, per region. */
function seasonMean(s: Series, y0: number, y1: number, months: number[]): number[] | null {
  const acc = new Array(s.regions.length).fill(0);
  let n = 0;
  for (let y = y0; y <= y1; y++)
    for (const m of months) {
      const v = s.byYm.get(y)?.[m];
      if (!v) return null;
      v.forEach((x, i) => (acc[i] += x));
      n++;
    }
  return acc.map((a) => a / n);
}
const median = (a: number[]) => quantile(a, 0.5);
function quantile(a: number[], q: number): number {
  const b = [...a].sort((x, y) => x - y);
  const h = (b.length - 1) * q;
  const lo = Math.floor(h);
  return b[lo]! + (b[Math.min(lo + 1, b.length - 1)]! - b[lo]!) * (h - lo);
}
const r2 = (v: number) => Math.round(v * 100) / 100;

export function deriveWinterWarming(root: string, dir = rawDir()) {
  const { list, read } = reader(root);
  const wl = readFileSync(join(dir, 'cmip6_regional_extremes_ar6/gsat_by_ssp_period/cmip6_warming_level_years_one_ens.csv'), 'utf8')
    .split('\n')
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('model'))
    .map((l) => l.split(',').map((x) => x.trim()))
    .filter((r) => r[2] === 'ssp585');
  const runs: { model: string; ens: string; s: Series }[] = [];
  for (const f of list.filter((p) => p.includes('_ssp585_'))) {
    const m = /\/CMIP6_([^/]+)_ssp585_(r\d+i\d+p\d+f\d+)\.csv$/.exec(f);
    if (!m) continue;
    const hist = f.replace('_ssp585_', '_historical_');
    if (!list.includes(hist)) continue;
    const s = parse(read(hist));
    parse(read(f), s);
    runs.push({ model: m[1]!, ens: m[2]!, s });
  }
  const regions = runs[0]!.s.regions;
  const DJF = [12, 1, 2],
    JJA = [6, 7, 8];
  // winter season per region from the 1850-1900 multi-model climatology
  const base = (months: number[]) => regions.map((_, i) => median(runs.map((r) => seasonMean(r.s, 1850, 1900, months)![i]!)));
  const bD = base(DJF),
    bJ = base(JJA);
  const winter = regions.map((_, i) => (bJ[i]! < bD[i]! ? 'JJA' : 'DJF'));
  const perGwl: number[][][] = GWLS.map(() => regions.map(() => []));
  const late: number[][] = regions.map(() => []);
  const used = new Set<string>();
  for (const r of runs) {
    const rowsExact = wl.filter((w) => w[0] === r.model && w[1] === r.ens);
    if (rowsExact.length === 0) continue;
    const wD = seasonMean(r.s, 1850, 1900, DJF)!,
      wJ = seasonMean(r.s, 1850, 1900, JJA)!;
    GWLS.forEach((g, k) => {
      const row = rowsExact.find((w) => +w[3]! === g);
      if (!row) return;
      const y0 = +row[4]!,
        y1 = +row[5]!;
      const d = seasonMean(r.s, y0, y1, DJF),
        j = seasonMean(r.s, y0, y1, JJA);
      if (!d || !j) return;
      used.add(`${r.model} ${r.ens}`);
      regions.forEach((_, i) => perGwl[k]![i]!.push(winter[i] === 'DJF' ? d[i]! - wD[i]! : j[i]! - wJ[i]!));
    });
    // 2081-2100 vs 1995-2014 (the Interactive Atlas' default baseline) for validation
    const fD = seasonMean(r.s, 2081, 2100, DJF),
      pD = seasonMean(r.s, 1995, 2014, DJF),
      fJ = seasonMean(r.s, 2081, 2100, JJA),
      pJ = seasonMean(r.s, 1995, 2014, JJA);
    if (fD && pD && fJ && pJ) regions.forEach((_, i) => late[i]!.push(winter[i] === 'DJF' ? fD[i]! - pD[i]! : fJ[i]! - pJ[i]!));
  }
  const out = {
    source:
      'IPCC WGI AR6 Atlas repository (Iturbide et al. 2021, doi:10.5281/zenodo.3691645), datasets-aggregated-regionally CMIP6_tas_landsea, copy in github traupach/warming_levels @96313bef; warming-level windows: mathause/cmip_warming_levels (staged)',
    method:
      'per model: winter mean in the first 20-year window at the warming level (SSP5-8.5) minus its 1850-1900 winter mean; multi-model median. Winter = the colder of DJF/JJA in 1850-1900.',
    mask: 'land and sea',
    warmingLevelsC: GWLS,
    models: [...used].sort(),
    regions: regions.map((abbrev, i) => ({
      abbrev,
      winter: winter[i],
      deltaAtGwl: perGwl.map((g) => (g[i]!.length >= 5 ? r2(median(g[i]!)) : null)),
      nModels: perGwl.map((g) => g[i]!.length),
      ssp585_2081_2100_vs_1995_2014: late[i]!.length
        ? { p10: r2(quantile(late[i]!, 0.1)), p50: r2(median(late[i]!)), p90: r2(quantile(late[i]!, 0.9)), n: late[i]!.length }
        : null,
    })),
  };
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.env.ATLAS_TAS_DIR ?? '/work/.mirror/traupach+warming_levels/repo';
  const out = deriveWinterWarming(root);
  writeFileSync(OUT, JSON.stringify(out, null, 1) + '\n');
  console.log(`wrote ${OUT}: ${out.models.length} models`);
  for (const r of out.regions) console.log(r.abbrev, r.winter, r.deltaAtGwl.join(' '), r.nModels.join('/'), JSON.stringify(r.ssp585_2081_2100_vs_1995_2014));
}
