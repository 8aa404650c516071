/**
 * Portfolio tails of cyclone wind from events (issue 35 item 2), through the real server, database and engine:
 * a cluster of ten sites within 30 km of Hong Kong and Shenzhen, and ten sites spread over three ocean basins.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { tierColumns } from '../src/modules/accounts/tier.service.js';
import { onPaidPlan, registerAndLogin, startServer, type TestServer, waitForAnalysis } from './support/harness.js';

/** Ten offices within 30 km (Kowloon, Hong Kong Island, Shenzhen, Tsuen Wan, Sha Tin ...). */
const CLUSTER = [
  [22.3, 114.17],
  [22.28, 114.16],
  [22.32, 114.22],
  [22.37, 114.12],
  [22.38, 114.19],
  [22.54, 114.06],
  [22.53, 113.95],
  [22.45, 114.03],
  [22.25, 114.2],
  [22.42, 114.25],
].map(([latitude, longitude], i) => ({ name: `Cluster ${i + 1}`, latitude, longitude, property_type: 'Office', valuation: 1e8 }));

/** Ten offices in three basins: western North Pacific, North Atlantic, southern hemisphere (Indian Ocean and Australia). */
const SPREAD = [
  [14.6, 120.98],
  [26.21, 127.68],
  [13.47, 144.75],
  [25.76, -80.19],
  [29.76, -95.37],
  [18.47, -66.1],
  [32.08, -81.09],
  [-20.16, 57.5],
  [-19.26, 146.82],
  [-12.46, 130.84],
].map(([latitude, longitude], i) => ({ name: `Spread ${i + 1}`, latitude, longitude, property_type: 'Office', valuation: 1e8 }));

type Tail = {
  expected_annual_loss_usd: number | null;
  engine_expected_annual_loss_usd: number | null;
  occurrence_loss_100_usd: number | null;
  occurrence_loss_250_usd: number | null;
  aggregate_loss_100_usd: number | null;
  tvar_99_loss_usd: number | null;
  sum_of_asset_loss_100_usd: number | null;
  oep: { return_period_years: number; loss_usd: number | null }[];
  aep: { return_period_years: number; loss_usd: number | null }[];
  event_set: { catalogue_years: Record<string, number>; events_with_loss: number; seconds: number; members_generated: number };
  money_withheld: string | null;
};

describe('portfolio tail of cyclone wind from events', () => {
  let s: TestServer;
  let owner: Awaited<ReturnType<typeof registerAndLogin>>;
  let stranger: Awaited<ReturnType<typeof registerAndLogin>>;
  const ids: Record<'cluster' | 'spread', number> = { cluster: 0, spread: 0 };
  const tails: Partial<Record<'cluster' | 'spread', Tail>> = {};
  before(async () => {
    s = await startServer({}, { jobs: true });
    owner = await onPaidPlan(s, await registerAndLogin(s.api));
    stranger = await onPaidPlan(s, await registerAndLogin(s.api));
    for (const [k, data] of [
      ['cluster', CLUSTER],
      ['spread', SPREAD],
    ] as const) {
      const res = await s.api.post('/api/v2/create_project/', {
        token: owner.token,
        json: { portfolio_name: `Tail ${k}`, data, portfolio_variables: ['Typhoon'] },
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      ids[k] = res.body.project.project_id;
      await waitForAnalysis(s, owner.token, ids[k]);
    }
  });
  after(() => s.close());

  const tailOf = async (k: 'cluster' | 'spread') => {
    const res = await s.api.get(`/api/v2/projects/${ids[k]}/portfolio_tail/?analysis_type=ssp&scenario=45&year=2020`, { token: owner.token });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 400));
    return (tails[k] = res.body as Tail);
  };

  // The event winds take seconds of CPU (154 s for 1,000 assets): they are computed in a worker thread, so while one
  // project's tail is computed the server keeps answering; two requests for the same project share one computation.
  test('while a tail is computed, other requests are answered within 300 ms (p95) and a second request shares the computation', async () => {
    let done = false;
    const first = tailOf('spread').finally(() => (done = true));
    const second = tailOf('spread');
    // each figure: the answer's time plus how late the 50 ms pause after it ended (a blocked event loop shows in either)
    const ms: number[] = [];
    while (!done && ms.length < 20) {
      const t0 = performance.now();
      const h = await s.api.get('/api/health');
      assert.equal(h.status, 200);
      const answered = performance.now();
      await new Promise((r) => setTimeout(r, 50));
      ms.push(answered - t0 + Math.max(0, performance.now() - answered - 50));
    }
    const during = ms.length;
    const [a, b] = await Promise.all([first, second]);
    ms.sort((x, y) => x - y);
    const p95 = ms[Math.min(ms.length - 1, Math.ceil(0.95 * ms.length) - 1)]!;
    console.log(
      `health during the tail (${a.event_set.seconds} s of event winds): ${during} requests, median ${ms[ms.length >> 1]!.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${ms[ms.length - 1]!.toFixed(1)} ms`,
    );
    assert.ok(during >= 5, `only ${during} health requests were answered before the tail`);
    assert.ok(p95 < 300, `p95 ${p95} ms`);
    assert.deepEqual(b, a);
  });

  // What an event set shows: sites 5-30 km apart sit inside one typhoon's wind field (radius of maximum wind 20-60 km,
  // gales to 300 km), so a cluster's rare year is every site's rare year and its portfolio 1-in-100 is close to the
  // sum of the sites' own (comonotonic); sites in three basins are never hit by one storm, so the portfolio 1-in-100
  // is well below the sum (the largest single site's loss dominates it).
  test('a cluster within 30 km: one typhoon hits every site, so the portfolio 1-in-100 is close to the sum of the sites', async () => {
    const t = await tailOf('cluster');
    const sum = t.sum_of_asset_loss_100_usd!;
    const occ = t.occurrence_loss_100_usd!;
    console.log(
      `cluster: occurrence 1-in-100 ${occ.toFixed(0)}, aggregate ${t.aggregate_loss_100_usd}, sum ${sum.toFixed(0)}, ratio ${(occ / sum).toFixed(3)}; ${t.event_set.seconds} s`,
    );
    assert.ok(sum > 0 && occ > 0);
    // Within 10 % of the sum either way: the sum takes each site's 1-in-100 wind from the 0.25° layer (bilinear between
    // 0.5° centres, 0.5 m/s steps), the events evaluate the wind at the site itself; a 1 m/s difference at 43 m/s moves
    // the cubic Emanuel damage by about 8 %.
    assert.ok(occ <= sum * 1.1, `occurrence ${occ} ≤ 1.1 × sum ${sum}`);
    assert.ok(occ >= 0.8 * sum, `occurrence ${occ} ≥ 0.8 × sum ${sum}`);
    assert.ok(t.aggregate_loss_100_usd! >= occ);
    assert.ok(t.tvar_99_loss_usd! >= t.aggregate_loss_100_usd!);
    // curves rise with the return period
    for (let i = 1; i < t.oep.length; i++) assert.ok(t.oep[i]!.loss_usd! >= t.oep[i - 1]!.loss_usd!);
  });

  test('ten sites over three basins: no event hits more than a few of them, so the portfolio 1-in-100 is well below the sum', async () => {
    const t = await tailOf('spread');
    const sum = t.sum_of_asset_loss_100_usd!;
    const occ = t.occurrence_loss_100_usd!;
    console.log(
      `spread: occurrence 1-in-100 ${occ.toFixed(0)}, aggregate ${t.aggregate_loss_100_usd}, sum ${sum.toFixed(0)}, ratio ${(occ / sum).toFixed(3)}; ${t.event_set.seconds} s`,
    );
    assert.deepEqual(Object.keys(t.event_set.catalogue_years).sort(), ['EP', 'NA', 'NI', 'SH', 'WP']);
    // below 0.7 of the sum, and well below the cluster's ratio (0.55 measured at SSP2-4.5 2050 and 2020)
    assert.ok(occ > 0 && occ < 0.7 * sum, `occurrence ${occ} < 0.7 × sum ${sum}`);
    assert.ok(occ / sum < 0.8 * (tails.cluster!.occurrence_loss_100_usd! / tails.cluster!.sum_of_asset_loss_100_usd!));
  });

  test('the event loss table downloads as CSV; its rows sum to the expected annual loss, close to the engine', async () => {
    const res = await fetch(`${s.url}/api/v2/projects/${ids.cluster}/portfolio_tail/event_losses.csv?analysis_type=ssp&scenario=45&year=2020`, {
      headers: { authorization: `Token ${owner.token}` },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/csv/);
    const lines = (await res.text()).trim().split('\n');
    assert.equal(lines[0], 'event_id,basin,source,year,rate_per_year,loss_usd');
    const rows = lines.slice(1).map((l) => l.split(','));
    const t = tails.cluster!;
    assert.equal(rows.length, t.event_set.events_with_loss);
    const mean = rows.reduce((a, r) => a + Number(r[4]) * Number(r[5]), 0);
    assert.ok(Math.abs(mean - t.expected_annual_loss_usd!) <= 1e-3 * t.expected_annual_loss_usd!, `Σ rate × loss ${mean} vs ${t.expected_annual_loss_usd}`);
    // The engine integrates each site's 9-point return-period curve (trapezoid, 0.25° bilinear layer): within 25 %.
    const engine = t.engine_expected_annual_loss_usd!;
    console.log(`cluster EAL: events ${t.expected_annual_loss_usd}, engine ${engine}, ratio ${(t.expected_annual_loss_usd! / engine).toFixed(3)}`);
    assert.ok(Math.abs(t.expected_annual_loss_usd! / engine - 1) < 0.25, `events ${t.expected_annual_loss_usd} vs engine ${engine}`);
  });

  test('permissions: another company gets 404; the Free plan gets no money figures', async () => {
    const other = await s.api.get(`/api/v2/projects/${ids.cluster}/portfolio_tail/`, { token: stranger.token });
    assert.ok(other.status === 404 || other.status === 403, String(other.status));
    const bad = await s.api.get(`/api/v2/projects/${ids.cluster}/portfolio_tail/?year=2031`, { token: owner.token });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /year/);
    await s.db.updateTable('companies').set(tierColumns('free')).where('code', '=', owner.company_code).execute();
    const free = await s.api.get(`/api/v2/projects/${ids.cluster}/portfolio_tail/?analysis_type=ssp&scenario=45&year=2020`, { token: owner.token });
    assert.equal(free.status, 200);
    const f = free.body as Tail;
    assert.ok(f.money_withheld);
    assert.equal(f.occurrence_loss_100_usd, null);
    assert.ok(f.oep.every((p) => p.loss_usd === null));
    const csv = await fetch(`${s.url}/api/v2/projects/${ids.cluster}/portfolio_tail/event_losses.csv`, { headers: { authorization: `Token ${owner.token}` } });
    assert.equal(csv.headers.get('x-money-withheld'), 'portfolio_losses');
    const body = (await csv.text()).trim().split('\n');
    assert.ok(body.slice(1).every((l) => l.endsWith(',')));
  });
});
