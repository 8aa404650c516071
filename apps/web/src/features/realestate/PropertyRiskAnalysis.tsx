import { useMemo, useState } from 'react';
import { Card, Col, Row, Segmented, Statistic, Table, Typography } from 'antd';
import {
  ELEVATION_BANDS_M,
  elevationBand,
  FLOOD_DEPTH_BANDS_M,
  floodDepthBand,
  markerColour,
  severityBand,
  TYPHOON_WIND_BANDS_KMH,
  typhoonWindBand,
  type PropertyRiskResponse,
  type PropertyRiskRow,
} from '@crp/contracts';
import { AssetMap } from '../../ui/maps/AssetMap';
import { Chart } from '../../ui/charts/Chart';
import { heatmapOption } from '../../ui/charts/heatmapOption';
import { money } from '../../lib/format';
import { FloodMitigationGuide } from '../../ui/FloodMitigationGuide';
import { Legend } from './Legend';
import { DEPTH_COLOURS, ELEVATION_COLOURS, WIND_COLOURS } from './legendColours';

const HEAT_COLUMNS = ['Flood', 'Flood ring mean', 'Typhoon', 'Typhoon ring mean'];
const DRIVER: Record<string, string> = { river_flood: 'River flood', rainfall_flood: 'Rainfall flood', storm_surge: 'Storm surge' };
const SCENARIO: Record<string, string> = { '26': '2.6', '45': '4.5', '85': '8.5' };

function ScoreTag({ score }: { score: number }) {
  return (
    <span className="crp-re-score" style={{ background: markerColour(score), color: score > 76 ? '#fff' : '#1f2937' }}>
      {score.toFixed(0)} · {severityBand(score)}
    </span>
  );
}
const short = (s: string) => (s.length > 20 ? `${s.slice(0, 20)}...` : s);
const people = (v: number) => v.toLocaleString('en-US');
/** A tile's short form (issue 37 item 7: '1045.60 B USD' and '37,387,674 people' were cut in a sixth of the page at 1280 px). */
const tileMoney = (v: number) => (Math.abs(v) >= 1e12 ? `${(v / 1e12).toFixed(2)} T USD` : money(v));
const tilePeople = (v: number) => (v >= 1e6 ? `${(v / 1e6).toFixed(1)} M` : people(v));
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

function ringColumns(h: 'flood' | 'typhoon') {
  return [
    { title: 'Ring mean', key: `${h}-mean`, width: 90, render: (_: unknown, r: PropertyRiskRow) => r[h].mean_score.toFixed(1) },
    { title: 'Ring min', key: `${h}-min`, width: 80, render: (_: unknown, r: PropertyRiskRow) => r[h].min_value.toFixed(0) },
    { title: 'Ring max', key: `${h}-max`, width: 80, render: (_: unknown, r: PropertyRiskRow) => r[h].max_value.toFixed(0) },
    { title: 'Ring (km)', key: `${h}-ring`, width: 90, render: (_: unknown, r: PropertyRiskRow) => `${r[h].min_distance}-${r[h].max_distance}` },
  ];
}

/** The Property Risk Analysis (spec 001 §2.5): summary tiles, heat map, risk map, flood and typhoon tables with legends. */
export function PropertyRiskAnalysis({ result }: { result: PropertyRiskResponse }) {
  const rows = result.data;
  const [mapHazard, setMapHazard] = useState<'flood' | 'typhoon'>('flood');
  const heat = useMemo(
    () => ({
      assets: rows.map((r) => r.name),
      hazards: HEAT_COLUMNS,
      data: rows.flatMap((r, y) =>
        [r.flood_score, r.flood.mean_score, r.typhoon_score, r.typhoon.mean_score].map((v, x) => [x, y, Math.round(v)] as [number, number, number]),
      ),
    }),
    [rows],
  );
  const points = useMemo(
    () =>
      rows.map((r) => {
        const s = mapHazard === 'flood' ? r.flood_score : r.typhoon_score;
        return {
          name: r.name,
          latitude: r.lat,
          longitude: r.lon,
          colour: markerColour(s),
          detail: `${mapHazard === 'flood' ? 'Flood' : 'Typhoon'} score ${s.toFixed(0)} (${severityBand(s)})`,
        };
      }),
    [rows, mapHazard],
  );
  const worstFlood = rows.reduce<PropertyRiskRow | null>((w, r) => (!w || r.flood_score > w.flood_score ? r : w), null);
  const worstTyphoon = rows.reduce<PropertyRiskRow | null>((w, r) => (!w || r.typhoon_score > w.typhoon_score ? r : w), null);
  const heatHeight = rows.length === 1 ? 120 : Math.min(900, Math.max(380, 160 + rows.length * 36));
  const meanFlood = mean(rows.map((r) => r.flood_score));
  const meanTyphoon = mean(rows.map((r) => r.typhoon_score));

  return (
    <div className="crp-re-analysis" data-testid="property-risk-analysis">
      <Typography.Paragraph className="crp-muted">
        {rows.length} propert{rows.length === 1 ? 'y' : 'ies'} · {result.scenario.analysis_type.toUpperCase()} {SCENARIO[result.scenario.scenario]} ·{' '}
        {result.scenario.year} · scores 0-100 from the platform's hazard engine (the dashboard's hazard scores); the ring summarises the same property placed
        around its site.
      </Typography.Paragraph>
      <Row gutter={[16, 16]} data-testid="summary-tiles">
        {[
          {
            title: 'Properties',
            value: String(rows.length),
            note: `${result.scenario.analysis_type.toUpperCase()} ${SCENARIO[result.scenario.scenario]} · ${result.scenario.year}`,
          },
          { title: 'Mean flood score', value: meanFlood.toFixed(1), note: severityBand(meanFlood) },
          { title: 'Mean typhoon score', value: meanTyphoon.toFixed(1), note: severityBand(meanTyphoon) },
          { title: 'Highest flood', value: worstFlood ? worstFlood.flood_score.toFixed(0) : '0', note: worstFlood ? short(worstFlood.name) : '' },
          { title: 'Highest typhoon', value: worstTyphoon ? worstTyphoon.typhoon_score.toFixed(0) : '0', note: worstTyphoon ? short(worstTyphoon.name) : '' },
          { title: 'Surrounding GDP', value: tileMoney(result.summary.total_gdp_value), note: `${tilePeople(result.summary.total_population)} people` },
        ].map((t) => (
          <Col key={t.title} xs={12} md={8} xl={4}>
            <Card className="crp-card crp-re-tile">
              <Statistic title={t.title} value={t.value} />
              <div className="crp-muted crp-re-tile-note" title={t.note}>
                {t.note}
              </div>
            </Card>
          </Col>
        ))}
      </Row>
      <Row gutter={[16, 16]} className="crp-gap-top">
        <Col xs={24} xl={12}>
          <Card className="crp-card" title="Heat Map" data-testid="property-heatmap">
            <Chart option={heatmapOption(heat, heatHeight)} height={heatHeight} label="Flood and typhoon scores by property" />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card
            className="crp-card"
            title="Risk Map"
            data-testid="property-risk-map"
            extra={
              <Segmented
                size="small"
                value={mapHazard}
                onChange={(v) => setMapHazard(v as 'flood' | 'typhoon')}
                options={[
                  { value: 'flood', label: 'Flood' },
                  { value: 'typhoon', label: 'Typhoon' },
                ]}
              />
            }
          >
            <AssetMap points={points} height={Math.max(heatHeight, 380)} label={`Properties coloured by ${mapHazard} score`} />
          </Card>
        </Col>
      </Row>
      <Card className="crp-card crp-gap-top" title="Flood Score" data-testid="flood-table">
        <Legend title="Elevation" bands={ELEVATION_BANDS_M} colours={ELEVATION_COLOURS} unit="m" testId="elevation-legend" />
        <Legend title="Flood depth (100-year)" bands={FLOOD_DEPTH_BANDS_M} colours={DEPTH_COLOURS} unit="m" testId="depth-legend" />
        <Table<PropertyRiskRow>
          size="small"
          rowKey={(r) => `${r.name}-${r.lat}-${r.lon}`}
          dataSource={rows}
          pagination={rows.length > 10 ? { pageSize: 10 } : false}
          scroll={{ x: 1000 }}
          columns={[
            { title: 'Name', dataIndex: 'name', fixed: 'left', width: 170, render: (v: string) => <span title={v}>{short(v)}</span> },
            {
              title: 'Flood score',
              key: 'score',
              width: 140,
              sorter: (a, b) => a.flood_score - b.flood_score,
              render: (_v, r) => <ScoreTag score={r.flood_score} />,
            },
            { title: 'Driver', key: 'driver', width: 120, render: (_v, r) => DRIVER[r.flood_driver] ?? r.flood_driver },
            {
              title: 'Depth (m)',
              key: 'depth',
              width: 120,
              render: (_v, r) =>
                r.flood_depth_m === null ? (
                  '—'
                ) : (
                  <span>
                    <span className="crp-re-swatch" style={{ background: DEPTH_COLOURS[floodDepthBand(r.flood_depth_m)] }} /> {r.flood_depth_m.toFixed(2)}
                  </span>
                ),
            },
            {
              title: 'Elevation (m)',
              key: 'elev',
              width: 120,
              render: (_v, r) =>
                r.elevation_m === null ? (
                  <span className="crp-muted" title="No coastal elevation tile here">
                    inland
                  </span>
                ) : (
                  <span>
                    <span className="crp-re-swatch" style={{ background: ELEVATION_COLOURS[elevationBand(r.elevation_m)] }} /> {r.elevation_m.toFixed(0)}
                  </span>
                ),
            },
            ...ringColumns('flood'),
            { title: 'Population', key: 'pop', width: 110, render: (_v, r) => people(r.population_value) },
            {
              title: 'GDP',
              key: 'gdp',
              width: 100,
              render: (_v, r) => (
                <span
                  title={
                    r.gdp_per_capita_usd
                      ? `GDP per capita ${r.gdp_per_capita_usd.toLocaleString('en-US')} US$ (${r.gdp_year}, ${r.country_code})`
                      : 'No GDP per capita for this country'
                  }
                >
                  {money(r.gdp_value)}
                </span>
              ),
            },
          ]}
        />
      </Card>
      <Card className="crp-card crp-gap-top" title="Typhoon Score" data-testid="typhoon-table">
        <Legend title="Wind (100-year, 1-min sustained)" bands={TYPHOON_WIND_BANDS_KMH} colours={WIND_COLOURS} unit="km/h" testId="wind-legend" />
        <Table<PropertyRiskRow>
          size="small"
          rowKey={(r) => `${r.name}-${r.lat}-${r.lon}`}
          dataSource={rows}
          pagination={rows.length > 10 ? { pageSize: 10 } : false}
          scroll={{ x: 900 }}
          columns={[
            { title: 'Name', dataIndex: 'name', fixed: 'left', width: 170, render: (v: string) => <span title={v}>{short(v)}</span> },
            {
              title: 'Typhoon score',
              key: 'score',
              width: 140,
              sorter: (a, b) => a.typhoon_score - b.typhoon_score,
              render: (_v, r) => <ScoreTag score={r.typhoon_score} />,
            },
            {
              title: 'Wind (km/h)',
              key: 'wind',
              width: 140,
              render: (_v, r) =>
                r.typhoon_wind_kmh === null ? (
                  '—'
                ) : (
                  <span>
                    <span className="crp-re-swatch" style={{ background: WIND_COLOURS[typhoonWindBand(r.typhoon_wind_kmh)] }} /> {r.typhoon_wind_kmh.toFixed(0)}{' '}
                    ({typhoonWindBand(r.typhoon_wind_kmh)})
                  </span>
                ),
            },
            ...ringColumns('typhoon'),
            { title: 'Latitude', dataIndex: 'lat', width: 100, render: (v: number) => v.toFixed(5) },
            { title: 'Longitude', dataIndex: 'lon', width: 100, render: (v: number) => v.toFixed(5) },
          ]}
        />
      </Card>
      <Card className="crp-card crp-gap-top" title="Flood Risk Reduction Level">
        <FloodMitigationGuide />
      </Card>
    </div>
  );
}
