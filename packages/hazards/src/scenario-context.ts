/**
 * Scenario-year → ScenarioContext: the global warming level, the GMSL rise since 2020 and, per AR6 region, the changes
 * of TXx, TNn, Rx1day, Rx5day, the winter-mean temperature and total soil moisture against the baseline climatology and the typhoon intensity factor per basin, computed
 * once per scenario-year and cached (scenario.ts holds the maths).
 */
import { deltaAtGwl, gmslRiseSince2020M, knutsonFactor, warmingLevelC, type HazardParams } from './scenario.js';
import type { ScenarioContext, ScenarioYearOpts } from './types.js';

export function createScenarioResolver(params: HazardParams): (o: ScenarioYearOpts | ScenarioContext) => ScenarioContext {
  const nReg = params.regions.length;
  const basinCodes = params.typhoonBasins;
  const ctxCache = new Map<string, ScenarioContext>();
  return (o) => {
    if ('gwlC' in o) return o;
    const key = `${o.scenario}:${o.year}`;
    const c = ctxCache.get(key);
    if (c) return c;
    const gwl = warmingLevelC(params, o.scenario, o.year);
    const base = params.baselineGwlC;
    /** Change of an index per region (the last row: the global change, for cells outside every region). */
    const mk = (idx: 'TXx' | 'TNn' | 'Rx1day' | 'Rx5day', floor0: boolean) => {
      const a = new Float32Array(nReg + 1);
      for (let r = 0; r <= nReg; r++) {
        const v4 = (r < nReg ? params.regionalDeltas[idx][r] : null) ?? params.globalDeltas[idx]!;
        let d = deltaAtGwl(v4, gwl) - deltaAtGwl(v4, base);
        if (floor0) d = Math.max(0, d);
        a[r] = d;
      }
      return a;
    };
    // winter-mean warming (the cold and snow models), same pattern scaling as the extremes
    const wt = params.winterTas;
    const dTWin = new Float32Array(nReg + 1);
    for (let r = 0; r <= nReg; r++) {
      const v4 = (r < nReg ? wt.deltas[r] : null) ?? wt.global;
      dTWin[r] = deltaAtGwl(v4, gwl) - deltaAtGwl(v4, base);
    }
    // soil moisture (σ) against today's (2020) warming level, not the climatology's: a business is adapted to the climate
    // it runs in, so drought disruption starts at 0 today (engine.md §1.4b); SM_total has no global row, so cells outside
    // every region get no change
    const gwlToday = Math.min(gwl, warmingLevelC(params, o.scenario, 2020));
    const dSM = new Float32Array(nReg + 1);
    for (let r = 0; r < nReg; r++) {
      const v4 = params.regionalDeltas.SM_total[r];
      if (v4) dSM[r] = deltaAtGwl(v4, gwl) - deltaAtGwl(v4, gwlToday);
    }
    const tf = new Float32Array(basinCodes.length);
    basinCodes.forEach((b, i) => {
      tf[i] = b ? knutsonFactor(params.knutsonIntensityPct[b] ?? 0, gwl, base) : 1;
    });
    const ctx: ScenarioContext = {
      key,
      scenario: o.scenario,
      year: o.year,
      gwlC: gwl,
      gmslRiseM: gmslRiseSince2020M(params, o.scenario, o.year),
      dTXx: mk('TXx', false),
      dTNn: mk('TNn', false),
      dRx1: mk('Rx1day', true),
      dRx5: mk('Rx5day', true),
      dTWin,
      dSM,
      typhoonFactor: tf,
    };
    if (ctxCache.size > 2000) ctxCache.clear();
    ctxCache.set(key, ctx);
    return ctx;
  };
}
