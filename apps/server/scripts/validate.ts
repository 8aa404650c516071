/**
 * Prints the reference buildings' expected annual losses (docs/validation.md "Losses of reference buildings") and the
 * demo portfolio's totals, from the real engine over the committed hazard layers. `npm run validate -w @crp/server`.
 */
import { HAZARD_KEYS } from '@crp/contracts';
import { analyseReference, demoReferenceAssets, REFERENCE_BUILDINGS } from '../src/modules/analysis/reference-buildings.js';

const pct = (x: number) => (Number.isNaN(x) ? '–' : x === 0 ? '0' : `${(100 * x).toFixed(x < 0.0001 ? 4 : 3)}`);
const show = (rows: ReturnType<typeof analyseReference>) => {
  const hz = HAZARD_KEYS.filter((h) => rows.some((r) => r.byHazard[h]! > 0));
  console.log(`| building | ${hz.join(' | ')} | total %/yr | premium %/yr | 20-yr sum % |`);
  console.log(`|---|${hz.map(() => '---:').join('|')}|---:|---:|---:|`);
  for (const r of rows)
    console.log(`| ${r.name} | ${hz.map((h) => pct(r.byHazard[h]!)).join(' | ')} | ${pct(r.total)} | ${pct(r.premium)} | ${(100 * r.cvar20).toFixed(2)} |`);
};
for (const [year, scenario] of [
  [2020, '45'],
  [2050, '85'],
] as const) {
  console.log(`\n### Reference buildings, ${year === 2020 ? 'baseline 2020' : `SSP5-8.5 ${year}`} (% of value per year)\n`);
  show(
    analyseReference(
      REFERENCE_BUILDINGS.map((b) => b.asset),
      year,
      scenario,
    ),
  );
}
const demo = demoReferenceAssets();
for (const [year, scenario] of [
  [2020, '45'],
  [2050, '85'],
] as const) {
  const rows = analyseReference(demo, year, scenario);
  console.log(`\n### Demo portfolio, ${year === 2020 ? 'baseline 2020' : `SSP5-8.5 ${year}`}\n`);
  show(rows);
  const value = demo.reduce((s, a) => s + a.valuation, 0);
  const w = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r, i) => s + f(r) * demo[i]!.valuation, 0) / value;
  console.log(
    `\nportfolio: EAL ${pct(w((r) => r.total))} %/yr, premium ${pct(w((r) => r.premium))} %/yr, 20-yr sum ${(100 * w((r) => r.cvar20)).toFixed(2)} % of value`,
  );
}
