import { useMemo, useState } from 'react';
import { Select } from 'antd';
import { markerColour } from '@crp/contracts';
import type { DashboardData } from '../../api/dashboard';
import { AssetMap, type AssetPoint } from './AssetMap';
import { Section } from './Section';

/** World-map marker bands (spec 001 §4). */
const BANDS = [
  { label: '≤ 1', colour: markerColour(0) },
  { label: '> 1', colour: markerColour(2) },
  { label: '> 26', colour: markerColour(27) },
  { label: '> 51', colour: markerColour(52) },
  { label: '> 76', colour: markerColour(77) },
  { label: '100', colour: markerColour(100) },
];

export function MarkerLegend() {
  return (
    <ul className="crp-dash-legend" aria-label="Marker colour by score">
      {BANDS.map((b) => (
        <li key={b.label}>
          <span className="crp-dash-swatch crp-dash-swatch-round" style={{ background: b.colour }} />
          {b.label}
        </li>
      ))}
    </ul>
  );
}

/** Asset location map (all assets, one colour). */
export function LocationMapSection({ data }: { data: DashboardData }) {
  const rows = data.hazard_map_data ?? data.asset_table;
  const points: AssetPoint[] = useMemo(
    () => (rows ?? []).map((r) => ({ name: r.name, latitude: r.latitude, longitude: r.longitude, colour: '#2563eb', detail: `${r.latitude.toFixed(4)}, ${r.longitude.toFixed(4)}` })),
    [rows],
  );
  return (
    <Section testId="section-location-map" title="Asset location" locked={!rows} empty={!!rows && rows.length === 0}>
      {/* Remount when the asset set changes between one and many so the default zoom (16 or 2) applies. */}
      <AssetMap key={points.length === 1 ? 'one' : 'many'} points={points} label="Asset location map" />
    </Section>
  );
}

/** World map of assets coloured by the climate score or one hazard's score (spec 001 §4 marker bands). */
export function RiskMapSection({ data }: { data: DashboardData }) {
  const [hazard, setHazard] = useState<string>('Climate score');
  const rows = data.hazard_map_data;
  const hazards = Object.keys(rows?.[0]?.scores ?? {});
  const sel = hazard === 'Climate score' || hazards.includes(hazard) ? hazard : 'Climate score';
  const points: AssetPoint[] = useMemo(
    () =>
      (rows ?? []).map((r) => {
        const score = sel === 'Climate score' ? r.climate_score : (r.scores[sel] ?? null);
        return { name: r.name, latitude: r.latitude, longitude: r.longitude, colour: markerColour(score ?? 0), detail: `${sel}: ${score ?? 'no data'}` };
      }),
    [rows, sel],
  );
  return (
    <Section
      testId="section-risk-map"
      title="Risk map"
      locked={!rows}
      empty={!!rows && rows.length === 0}
      extra={
        <Select
          size="small"
          aria-label="Risk map hazard"
          data-testid="risk-map-hazard"
          style={{ width: 170 }}
          value={sel}
          onChange={setHazard}
          options={['Climate score', ...hazards].map((h) => ({ value: h, label: h }))}
        />
      }
    >
      <AssetMap key={points.length === 1 ? 'one' : 'many'} points={points} label={`World map of assets coloured by ${sel}`} />
      <MarkerLegend />
    </Section>
  );
}
