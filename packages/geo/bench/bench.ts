/**
 * `npm run bench -w @crp/geo`: load times, countryOf/s, reverse geocodes/s, forward searches/s, company searches/s.
 * Deterministic pseudo-random points (fixed seed); each figure after a warm-up pass. Prints the load average because
 * the development machine is shared.
 */
import { loadavg } from 'node:os';
import { countryOf, forwardGeocode, reverseGeocode, searchCompanies, warmCountries, warmForward } from '../src/index.js';

let seed = 42;
const rnd = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const timeMs = (f: () => void) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
function rate(label: string, n: number, f: (i: number) => void, warmup = Math.min(n, 2000)) {
  for (let i = 0; i < warmup; i++) f(i); // warm-up
  const ms = timeMs(() => {
    for (let i = 0; i < n; i++) f(i);
  });
  console.log(`${label.padEnd(58)} ${fmt((n / ms) * 1000).padStart(12)} /s   (${n} in ${ms.toFixed(0)} ms)`);
}

console.log(
  `@crp/geo bench · node ${process.version} · load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}`,
);
console.log(`load countries + polygon index: ${timeMs(warmCountries).toFixed(0)} ms`);
console.log(`load places + search index:    ${timeMs(warmForward).toFixed(0)} ms`);

const world = Array.from({ length: 200_000 }, () => [rnd() * 120 - 60, rnd() * 360 - 180] as const);
rate('countryOf, random points 60°S-60°N (land and sea)', world.length, (i) => {
  const p = world[i]!;
  countryOf(p[0], p[1]);
});
const land = world.filter(([a, b]) => countryOf(a, b) !== null).slice(0, 20_000);
rate('countryOf, land points only', land.length * 5, (i) => {
  const p = land[i % land.length]!;
  countryOf(p[0], p[1]);
});
rate('reverseGeocode, random land points', land.length, (i) => {
  const p = land[i]!;
  reverseGeocode(p[0], p[1]);
});
const hk = Array.from({ length: 5000 }, () => [22.2 + rnd() * 0.3, 113.9 + rnd() * 0.4] as const);
rate('reverseGeocode, Hong Kong box (districts)', hk.length, (i) => {
  const p = hk[i]!;
  reverseGeocode(p[0], p[1]);
});
const sea = world.filter(([a, b]) => countryOf(a, b) === null).slice(0, 5000);
rate(
  'reverseGeocode, sea points, first visit of each 1° cell',
  sea.length,
  (i) => {
    const p = sea[i]!;
    reverseGeocode(p[0], p[1]);
  },
  0,
);
rate('reverseGeocode, sea points again (ocean label cached)', sea.length, (i) => {
  const p = sea[i]!;
  reverseGeocode(p[0], p[1]);
});

const queries = [
  'London',
  'Londn',
  'Paris, France',
  'Tokyo',
  'Hong Kong',
  'Mong Kok',
  'Frankf',
  'Sydney',
  'Mumbay',
  'Vietnam',
  'Springfield, Illinois',
  'Sao Paulo',
  'Shenzen',
  'New York',
  'Kowloon Bay',
  'Berlin',
  'Zurich',
  'Manchster',
  'Lagos',
  'ca',
];
rate('forwardGeocode, mixed queries (exact, prefix, typos, countries)', 2000, (i) => {
  forwardGeocode(queries[i % queries.length]!);
});
const companyTerms = ['Tencent', 'Apple', 'AAPL', 'bank', 'Siemens', 'HSBC', 'tencnet', '0700', 'Alibaba', 'Microsoft'];
rate('searchCompanies, mixed terms', 5000, (i) => {
  searchCompanies(companyTerms[i % companyTerms.length]!);
});
