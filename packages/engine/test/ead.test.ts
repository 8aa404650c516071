import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  eadFromCurve,
  betaCdf,
  betaFromMoments,
  lnGamma,
  impactDistributionBeta,
  PHYSRISK_IMPACT_EDGES,
  jrcCurveWithStd,
  emanuelDamage,
  jrcCurve,
  jrcDamage,
} from '../src/index.js';

const close = (a: number, b: number, tol = 1e-9, msg = '') => assert.ok(Math.abs(a - b) <= tol, `${msg} ${a} vs ${b}`);
const id = (x: number) => x;

test('EAD: hand-computed trapezoid over exceedance probability', () => {
  // p = 0.5, 0.1, 0.01; D = 0.1, 0.3, 0.6
  // (0.5-0.1)(0.1+0.3)/2 = 0.08; (0.1-0.01)(0.3+0.6)/2 = 0.0405; rare tail 0.01 x 0.6 = 0.006
  const r = eadFromCurve([2, 10, 100], [0.1, 0.3, 0.6], id);
  close(r.mean, 0.1265);
  close(r.max, 0.6);
  // E[D^2] = 0.4(0.01+0.03+0.09)/3 + 0.09(0.09+0.18+0.36)/3 + 0.01(0.36) = 0.0398333; sd = sqrt(E - mean^2)
  close(r.sd, Math.sqrt((0.4 * 0.13) / 3 + (0.09 * 0.63) / 3 + 0.0036 - 0.1265 ** 2), 1e-12);
  close(eadFromCurve([2, 10, 100], [0.1, 0.3, 0.6], id, { tail: 'none' }).mean, 0.1205);
  // unsorted input gives the same answer
  close(eadFromCurve([100, 2, 10], [0.6, 0.1, 0.3], id).mean, 0.1265);
});

test('EAD: standard of protection (frequency cut-off), full and partial segment', () => {
  close(eadFromCurve([2, 10, 100], [0.1, 0.3, 0.6], id, { protectionRpYears: 10 }).mean, 0.0465);
  // cut at p = 0.2: damage there 0.25 -> (0.2-0.1)(0.3+0.25)/2 = 0.0275
  close(eadFromCurve([2, 10, 100], [0.1, 0.3, 0.6], id, { protectionRpYears: 5 }).mean, 0.074);
  // a standard beyond the rarest return period: not the constant tail 0.001 x 0.6, but the excess over the design level of
  // the curve extended in ln RP (slope 0.03 / ln 10 per e-fold): E[D] = 0.001 x 0.01303 x E[u] (u ~ Exp(1), D = identity)
  close(eadFromCurve([2, 10, 100], [0.01, 0.03, 0.06], id, { protectionRpYears: 1000 }).mean, (0.001 * 0.03) / Math.log(10), 1e-12);
  // a flat curve beyond its rarest point passes nothing beyond a high standard (the HAND-plateau artefact)
  close(eadFromCurve([2, 10, 100], [0.6, 0.6, 0.6], id, { protectionRpYears: 1250 }).mean, 0, 1e-12);
  // at the rarest return period itself the rule is continuous with the excess, not with the constant tail
  assert.ok(eadFromCurve([2, 10, 100], [0.1, 0.3, 0.6], id, { protectionRpYears: 100 }).mean < 0.01 * 0.6);
});

test('EAD: monotone, never negative, no-data and degenerate curves', () => {
  // a non-monotone (noisy) curve is made non-decreasing: rarer events never less damaging
  const noisy = eadFromCurve([2, 10, 100], [0.3, 0.1, 0.6], id);
  close(noisy.mean, eadFromCurve([2, 10, 100], [0.3, 0.3, 0.6], id).mean);
  assert.ok(Number.isNaN(eadFromCurve([], [], id).mean));
  assert.ok(Number.isNaN(eadFromCurve([2, 10], [0.1, Number.NaN], id).mean));
  assert.equal(eadFromCurve([2, 10, 100], [-1, -1, -1], id).mean, 0);
  close(eadFromCurve([2, 10, 100], [5, 5, 5], id).mean, 0.5); // clipped to 1: 1 x p(2y)
  // higher hazard never lowers EAD
  let prev = 0;
  for (let s = 0; s <= 3; s += 0.05) {
    const e = eadFromCurve(
      [2, 5, 10, 25, 50, 100, 250, 500, 1000],
      [0, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.3, 1.5].map((x) => x * s),
      (x) => Math.min(1, x / 2),
    ).mean;
    assert.ok(e >= prev - 1e-15 && e >= 0);
    prev = e;
  }
});

test('Beta CDF: closed forms and symmetry', () => {
  close(lnGamma(5), Math.log(24), 1e-12);
  close(lnGamma(0.5), Math.log(Math.sqrt(Math.PI)), 1e-12);
  close(betaCdf(0.3, 1, 1), 0.3, 1e-12);
  close(betaCdf(0.4, 2, 3), 6 * 0.16 - 8 * 0.064 + 3 * 0.0256, 1e-12); // 6x^2 - 8x^3 + 3x^4
  close(betaCdf(0.5, 7.3, 7.3), 0.5, 1e-12);
  close(betaCdf(0.2, 0.5, 0.5), (2 / Math.PI) * Math.asin(Math.sqrt(0.2)), 1e-10); // arcsine law
  close(betaCdf(0.9, 50, 3) + betaCdf(0.1, 3, 50), 1, 1e-10);
  assert.equal(betaCdf(0, 2, 2), 0);
  assert.equal(betaCdf(1, 2, 2), 1);
  const ab = betaFromMoments(0.4816, 0.296)!;
  close(ab.a / (ab.a + ab.b), 0.4816, 1e-12);
  close(Math.sqrt((ab.a * ab.b) / ((ab.a + ab.b) ** 2 * (ab.a + ab.b + 1))), 0.296, 1e-12);
  assert.equal(betaFromMoments(0, 0.1), null);
  assert.equal(betaFromMoments(0.5, 0), null);
  assert.equal(betaFromMoments(0.1, 0.5), null);
});

test('JRC Asia industrial with Beta uncertainty (physrisk workload): probabilities sum to the binned probability', () => {
  const c = jrcCurveWithStd('industrial', 'asia')!;
  const curve = { intensity: c.depthsM, mean: c.mean, std: c.std };
  const rps = [2, 5, 10, 25, 50, 100, 250, 500, 1000];
  const depths = [0, 0.2, 0.5, 0.9, 1.2, 1.6, 2.2, 2.7, 3.3];
  const prob = new Float64Array(11);
  const matrix = new Float64Array(8 * 11);
  const mean = impactDistributionBeta(rps, depths, curve, PHYSRISK_IMPACT_EDGES, prob, matrix);
  close(
    prob.reduce((s, v) => s + v, 0),
    1 / 2 - 1 / 1000,
    1e-12,
  );
  for (let b = 0; b < 8; b++)
    close(
      matrix.slice(b * 11, b * 11 + 11).reduce((s, v) => s + v, 0),
      1,
      1e-9,
      `row ${b}`,
    );
  // mean is close to the deterministic bin-mean sum on the mean curve (bins of impact add discretisation error); the
  // Beta workload keeps the first (dry at RP 2) bin, as physrisk's Beta model does, so the reference keeps it too
  const jc = jrcCurve('industrial', 'asia');
  let det = 0;
  for (let i = 0; i < rps.length - 1; i++) det += ((1 / rps[i]! - 1 / rps[i + 1]!) * (jrcDamage(jc, depths[i]!) + jrcDamage(jc, depths[i + 1]!))) / 2;
  assert.ok(Math.abs(mean - det) < 0.02, `${mean} vs ${det}`);
});

test('Emanuel TC workload: 19 RPs, tail none equals the bin-mean sum', () => {
  const rps = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000];
  const v = rps.map((rp) => 30 + 12 * Math.log(rp));
  let direct = 0;
  for (let i = 0; i < 18; i++) direct += ((1 / rps[i]! - 1 / rps[i + 1]!) * (emanuelDamage(v[i]!) + emanuelDamage(v[i + 1]!))) / 2;
  close(eadFromCurve(rps, v, (x) => emanuelDamage(x), { tail: 'none' }).mean, direct, 1e-15);
});

/**
 * physrisk equivalence on curves whose frequent end is dry (issue 34). physrisk's ExceedanceCurve.get_probability_bins
 * gives every bin [I_i, I_i+1] the probability 1/RP_i − 1/RP_i+1, and DeterministicVulnerabilityModel takes the mean of
 * the damages at the bin edges: EAD = Σ (p_i − p_i+1)(f(I_i) + f(I_i+1))/2, with no rule that drops a bin whose more
 * frequent end does no damage. Reference values computed by hand from that formula (tail beyond the rarest RP dropped,
 * as DeterministicVulnerabilityModel does).
 */
test('physrisk bin probabilities on dry-ended curves: flood (JRC Europe commercial) and wind (Emanuel) count every bin', () => {
  const rps = [2, 5, 10, 25, 50, 100, 250, 500, 1000];
  const depths = [0, 0, 0.3, 0.8, 1.2, 1.6, 2.2, 2.7, 3.3];
  const jc = jrcCurve('commercial', 'europe');
  // JRC Europe commercial damage at the depths: 0, 0, 0.09, 0.24, 0.36, 0.47, 0.59, 0.69, 0.795; bins:
  // 0.3·0 + 0.1·0.045 + 0.06·0.165 + 0.02·0.30 + 0.01·0.415 + 0.006·0.53 + 0.002·0.64 + 0.001·0.7425 = 0.0297525
  // (the former dry-bin rule dropped the [5, 10] bin, 0.0045, and gave 0.0252525)
  close(eadFromCurve(rps, depths, (x) => jrcDamage(jc, x), { tail: 'none' }).mean, 0.0297525, 1e-12);
  // wind: V_T = 5 + 8 ln T m/s is calm below the Emanuel threshold (25.7 m/s) at 10 years, damaging from 20 years
  const wr = [10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000];
  const v = wr.map((rp) => 5 + 8 * Math.log(rp));
  assert.equal(emanuelDamage(v[0]!), 0);
  let ref = 0;
  for (let i = 0; i < wr.length - 1; i++) ref += ((1 / wr[i]! - 1 / wr[i + 1]!) * (emanuelDamage(v[i]!) + emanuelDamage(v[i + 1]!))) / 2;
  const firstBin = ((1 / 10 - 1 / 20) * emanuelDamage(v[1]!)) / 2;
  assert.ok(firstBin > 0);
  close(eadFromCurve(wr, v, (x) => emanuelDamage(x), { tail: 'none' }).mean, ref, 1e-15);
});
