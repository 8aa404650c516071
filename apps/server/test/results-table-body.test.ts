/**
 * CSV and GeoJSON FeatureCollection bodies of the results API (issue 38 item 1): the same rows as the JSON request
 * they stand for, read and checked by the upload's code (its sentences, here named by row or feature), options in
 * the query string; and the OpenAPI document lists the three request media types.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { AssetResult } from '@crp/contracts';
import { registerAndLogin, startServer, type TestServer } from './support/harness.js';

const JSON_ASSETS = [
  {
    id: 'HK-1',
    name: 'HK office',
    latitude: 22.3,
    longitude: 114.17,
    property_type: 'Office',
    valuation: 1e8,
    revenue: 2e7,
    floors: 12,
    construction: 'concrete' as const,
  },
  { id: 7, name: 'Manila warehouse', latitude: 14.6, longitude: 120.98, property_type: 'Warehouse', valuation: 3e7 },
];
const OPTIONS = { hazards: ['typhoon', 'river_flood'], scenarios: ['45', '85'], years: [2030, 2050] };
const QUERY = 'hazards=typhoon,river_flood&scenarios=45,85&years=2030,2050';

// The upload template's headers and synonyms, in another order, with an id column (the Manila id as the number 7).
const CSV = [
  'Asset name,Latitude,Longitude,id,Property Type,Value,Revenue,Floors,Construction Type',
  'HK office,22.3,114.17,HK-1,Office,100000000,20000000,12,Reinforced concrete',
  'Manila warehouse,14.6,120.98,7,Warehouse,30000000,,,',
  '',
].join('\r\n');

const FEATURES = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      id: 'HK-1',
      geometry: { type: 'Point', coordinates: [114.17, 22.3] },
      properties: { name: 'HK office', property_type: 'Office', valuation: 1e8, revenue: 2e7, floors: 12, construction: 'concrete' },
    },
    {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [120.98, 14.6] },
      properties: { id: 7, name: 'Manila warehouse', property_type: 'Warehouse', valuation: 3e7 },
    },
  ],
};

describe('results API: CSV and GeoJSON bodies', () => {
  let s: TestServer;
  let token: string;
  let jsonRows: AssetResult[];
  before(async () => {
    s = await startServer();
    token = (await registerAndLogin(s.api)).token;
    const res = await s.api.post('/api/v2/asset_results/', { token, json: { assets: JSON_ASSETS, ...OPTIONS } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    jsonRows = res.body.results;
    // the row's score named for what it is (issue 38), the old name kept as an alias
    assert.ok(jsonRows.some((r) => (r.loss_score ?? 0) > 0));
    for (const r of jsonRows) assert.equal(r.score, r.loss_score);
  });
  after(() => s?.close());

  const post = (body: string, contentType: string, query = QUERY, format = '') =>
    s.api.post(`/api/v2/asset_results/?${query}${format}`, { token, raw: { contentType, body } });

  test('a CSV body with a header row gives the rows of the same assets posted as JSON, ids echoed', async () => {
    const res = await post(CSV, 'text/csv; charset=utf-8');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(jsonRows.length, 2 * 2 * 2 * 2);
    // a CSV cell is text: the id 7 comes back as '7' (as written: '007' would stay '007')
    assert.deepEqual(
      res.body.results,
      jsonRows.map((r) => ({ ...r, asset_id: String(r.asset_id) })),
    );
    assert.deepEqual([...new Set((res.body.results as AssetResult[]).map((r) => r.asset_id))], ['HK-1', '7']);
    // and as CSV out
    const csv = await post(CSV, 'text/csv', QUERY, '&format=csv');
    assert.equal(csv.status, 200);
    assert.equal(String(csv.body).trim().split('\n').length, 1 + jsonRows.length);
  });

  test('a GeoJSON FeatureCollection of Point features gives the same rows; feature id or properties.id is the asset id', async () => {
    const res = await post(JSON.stringify(FEATURES), 'application/geo+json');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.results, jsonRows);
  });

  test("bad values answer the upload's sentences, named by row or feature", async () => {
    // the same file as an upload: its sentence for the row
    const badCsv = ['name,lat,long', 'Good,22.3,114.17', 'Far north,95.2,114.17'].join('\n');
    const upload = await s.api.post('/api/v2/create_project/', {
      token,
      multipart: { portfolio_name: 'Bad', upload_file: { filename: 'bad.csv', data: Buffer.from(badCsv) } },
    });
    assert.equal(upload.status, 400);
    const uploadSentence = (upload.body.error as string[])[0]!;
    assert.match(uploadSentence, /^Row 3: /);
    const res = await post(badCsv, 'text/csv');
    assert.equal(res.status, 400);
    assert.deepEqual(res.body.errors[0], { field: 'row 3', message: uploadSentence.replace(/^Row 3: /, '') });

    const nullIsland = await post(['name,lat,long', 'Zero,0,0'].join('\n'), 'text/csv');
    assert.equal(nullIsland.status, 400);
    assert.equal(nullIsland.body.errors[0].field, 'row 2');
    assert.match(nullIsland.body.errors[0].message, /0/);

    const unknown = await post(['name,lat,long,colour', 'A,22.3,114.17,red'].join('\n'), 'text/csv');
    assert.equal(unknown.status, 400);
    assert.deepEqual(
      unknown.body.errors.map((e: { field: string }) => e.field),
      ['colour'],
    );

    const noHeader = await post('A,22.3,114.17\nB,14.6,120.98\n', 'text/csv');
    assert.equal(noHeader.status, 400);
    assert.match(noHeader.body.detail, /header row/);

    const notRead = await post(['name,lat,long,solar', 'Farm,22.3,114.17,12'].join('\n'), 'text/csv');
    assert.equal(notRead.status, 400);
    assert.equal(notRead.body.errors[0].field, 'row 2.solar_production');

    const polygon = structuredClone(FEATURES);
    (polygon.features[1] as { geometry: unknown }).geometry = {
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    };
    const badGeom = await post(JSON.stringify(polygon), 'application/geo+json');
    assert.equal(badGeom.status, 400);
    assert.equal(badGeom.body.errors[0].field, 'features.1.geometry');

    const far = structuredClone(FEATURES);
    far.features[0]!.geometry.coordinates = [114.17, 95.2];
    const badLat = await post(JSON.stringify(far), 'application/geo+json');
    assert.equal(badLat.status, 400);
    assert.equal(badLat.body.errors[0].field, 'features.0');
    assert.match(badLat.body.errors[0].message, /latitude/);

    const extra = structuredClone(FEATURES);
    (extra.features[0]!.properties as Record<string, unknown>).colour = 'red';
    const badProp = await post(JSON.stringify(extra), 'application/geo+json');
    assert.equal(badProp.status, 400);
    assert.equal(badProp.body.errors[0].field, 'colour');

    const notFc = await post(JSON.stringify({ type: 'Feature' }), 'application/geo+json');
    assert.equal(notFc.status, 400);
    const notJson = await post('{', 'application/geo+json');
    assert.equal(notJson.status, 400);
  });

  test('query options are checked as JSON keys; with a JSON body they are a 400 naming them', async () => {
    const badYear = await post(CSV, 'text/csv', 'years=2031');
    assert.equal(badYear.status, 400);
    assert.equal(badYear.body.errors[0].field, 'years');
    const badHazard = await post(CSV, 'text/csv', 'hazards=typhon');
    assert.equal(badHazard.status, 400);
    assert.match(badHazard.body.errors[0].field, /^hazards/);
    const mixed = await s.api.post(`/api/v2/asset_results/?hazards=typhoon`, { token, json: { assets: JSON_ASSETS } });
    assert.equal(mixed.status, 400);
    assert.equal(mixed.body.errors[0].field, 'hazards');
  });

  test('OpenAPI lists the JSON, CSV and GeoJSON request bodies', () => {
    const doc = JSON.parse(readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8'));
    const content = doc.paths['/api/v2/asset_results/'].post.requestBody.content;
    assert.deepEqual(Object.keys(content), ['application/json', 'text/csv', 'application/geo+json']);
    assert.equal(content['application/json'].schema.$ref, '#/components/schemas/ResultsRequestInput');
    assert.equal(content['text/csv'].schema.type, 'string');
    assert.deepEqual(content['application/geo+json'].schema.properties.type.enum, ['FeatureCollection']);
  });
});
