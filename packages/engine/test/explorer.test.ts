import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildingDamageCurves, EXPLORER_DEPTHS_M } from '../src/index.js';

test('building-damage explorer: Hazus curves by occupancy/stories/basement/construction, per scenario', () => {
  const r = buildingDamageCurves({ basement: 'no', construction: 'wood', stories: '1', occupancy: 'residential', per_sq_m_value: 5000 });
  assert.equal(r.hazus_occupancy, 'RES1/1/0');
  assert.equal(r.first_floor_height_m, 0.305);
  for (const hz of ['river_flood', 'storm_surge', 'rainfall_flood'] as const)
    for (const sc of ['26', '45', '85'] as const) {
      const s = r[hz][sc];
      assert.equal(s.x.length, EXPLORER_DEPTHS_M.length);
      assert.equal(s.x_unit, 'm');
      for (let i = 1; i < s.y.length; i++) assert.ok(s.y[i]! >= s.y[i - 1]!);
      assert.ok(Math.abs(s.y_value[8]! - s.y[8]! * 5000) < 1e-6);
    }
  // at 2 m above ground, 1.695 m above the first floor: RES1 1-storey fn 129 between 1.52 (.53) and 1.83 (.59)
  const y2 = r.river_flood['85'].y[8]!;
  assert.ok(y2 > 0.53 && y2 < 0.59, String(y2));
  const concrete = buildingDamageCurves({ basement: 'no', construction: 'concrete', stories: '1', occupancy: 'residential', per_sq_m_value: 5000 });
  assert.ok(Math.abs(concrete.river_flood['26'].y[8]! - 0.7 * y2) < 1e-6);
  const two = buildingDamageCurves({ basement: 'yes', construction: 'wood', stories: '2', occupancy: 'residential', per_sq_m_value: 5000 });
  assert.equal(two.hazus_occupancy, 'RES1/2/1');
  const unknown = buildingDamageCurves({ basement: 'unknown', construction: 'unknown', stories: 'unknown', occupancy: 'unknown', per_sq_m_value: 50000 });
  assert.equal(unknown.hazus_occupancy, 'RES1/1/1');
  assert.equal(
    buildingDamageCurves({ basement: 'no', construction: 'mobile home', stories: '1', occupancy: 'residential', per_sq_m_value: 5000 }).hazus_occupancy,
    'RES2',
  );
  assert.equal(
    buildingDamageCurves({ basement: 'no', construction: 'steel', stories: '3 or more', occupancy: 'industrial', per_sq_m_value: 5000 }).hazus_occupancy,
    'IND2',
  );
});

test('building-damage explorer with site return-period curves: x = return period, EAD per scenario', () => {
  const rps = [2, 5, 10, 25, 50, 100, 250, 500, 1000];
  const c = (k: number) => ({ returnPeriodsYears: rps, intensities: [0, 0, 0.2, 0.5, 0.8, 1, 1.3, 1.5, 1.8].map((d) => d * k) });
  const r = buildingDamageCurves(
    { basement: 'no', construction: 'wood', stories: '1', occupancy: 'commercial', per_sq_m_value: 10000 },
    { river_flood: { '26': c(1), '45': c(1.1), '85': c(1.3) } },
  );
  assert.equal(r.river_flood['26'].x_unit, 'years');
  const e26 = r.river_flood['26'].expected_annual_damage_ratio!;
  const e85 = r.river_flood['85'].expected_annual_damage_ratio!;
  assert.ok(e26 > 0 && e85 > e26);
  assert.equal(r.storm_surge['26'].x_unit, 'm');
});
