/**
 * Portfolio tails from an event loss table (event-tail.ts): occurrence and aggregate exceedance, TVaR, the mean, and
 * the independence of basins, on tables whose answers are known by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { portfolioTail, type EventLossRow } from '../src/event-tail.js';

const row = (eventId: string, basin: string, year: number, rate: number, loss: number): EventLossRow => ({ eventId, basin, year, rate, loss });

test('one basin: occurrence is the largest event, aggregate the sum of a year, mean Σ rate × loss', () => {
  // 1,000 catalogue years (rate 0.001 each): year 1 has two events (100 and 50), year 2 one (80), year 3 one (10)
  const rows = [row('a', 'WP', 1, 0.001, 100), row('b', 'WP', 1, 0.001, 50), row('c', 'WP', 2, 0.001, 80), row('d', 'WP', 3, 0.001, 10)];
  const t = portfolioTail(rows, [1000, 500, 250]);
  assert.deepEqual(
    t.oep.map((p) => p.loss),
    [100, 80, 10],
  );
  assert.deepEqual(
    t.aep.map((p) => p.loss),
    [150, 80, 0],
  );
  assert.ok(Math.abs(t.meanAnnualLoss - 0.24) < 1e-12);
  // worst 1 % of years = the 3 years with losses (0.3 %) and 0.7 % of zero years
  assert.ok(Math.abs(t.tvar99 - ((150 + 80 + 10) * 0.001) / 0.01) < 1e-9);
});

test('two independent basins: the aggregate convolves them and keeps the mean', () => {
  // basins A and B each lose 100 once in 10 years: P(200) = 0.01, P(≥ 100) = 0.19 (the sum 200 is never one event)
  const rows = [row('a1', 'A', 1, 0.1, 100), row('b1', 'B', 1, 0.1, 100)];
  const t = portfolioTail(rows, [200, 10]);
  const [a200, a10] = t.aep.map((p) => p.loss);
  assert.ok(Math.abs(a200! - 200) < 0.1, `1-in-200 aggregate ${a200}`);
  assert.ok(Math.abs(a10! - 100) < 0.1, `1-in-10 aggregate ${a10}`);
  assert.ok(Math.abs(t.meanAnnualLoss - 20) < 1e-9);
  assert.equal(t.oep[0]!.loss, 100);
});
