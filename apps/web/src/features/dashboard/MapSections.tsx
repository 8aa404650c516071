import { useMemo, useState } from 'react';
import { Select } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { markerColour, type DashboardMapAnswer } from '@crp/contracts';
import { fetchAssetMap, type DashboardData, type DashboardFiltersSent } from '../../api/dashboard';
import { AssetMap, type AssetPoint, type Viewport } from '../../ui/maps/AssetMap';
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
    () =>
      (rows ?? []).map((r) => ({
        name: r.name,
        latitude: r.latitude,
        longitude: r.longitude,
        colour: '#2563eb',
        detail: `${r.latitude.toFixed(4)}, ${r.longitude.toFixed(4)}`,
      })),
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
      extra={<RiskMapHazardSelect value={sel} onChange={setHazard} hazards={hazards} />}
    >
      <AssetMap key={points.length === 1 ? 'one' : 'many'} points={points} label={`World map of assets coloured by ${sel}`} />
      <MarkerLegend />
    </Section>
  );
}

/**
 * The map data of the dashboard page from the server (api/v2/dashboard/map/): every point up to 5,000 selected assets
 * (asked once); above that, clusters of the viewport, asked again when the map is moved or zoomed.
 */
function useServerMap(sent: DashboardFiltersSent, colourBy: string, enabled: boolean) {
  const [view, setView] = useState<Viewport | null>(null);
  const first = useQuery({
    queryKey: ['dashboard', 'map', sent, colourBy],
    queryFn: ({ signal }) => fetchAssetMap(sent, { colour_by: colourBy }, signal),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
  const clustered = first.data?.clustered === true;
  const vp = useQuery({
    queryKey: ['dashboard', 'map', sent, colourBy, view],
    queryFn: ({ signal }) => fetchAssetMap(sent, { colour_by: colourBy, bbox: view!.bbox, zoom: view!.zoom }, signal),
    enabled: enabled && clustered && !!view,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
  return { data: clustered && vp.data ? vp.data : first.data, onViewport: setView };
}

/** Points (or clusters) of a map answer; `colour` fixed, or by score. */
function pointsOf(m: DashboardMapAnswer | undefined, label: string, colour?: string): AssetPoint[] {
  if (!m) return [];
  if (m.points) {
    const p = m.points;
    return p.name.map((name, n) => ({
      name,
      latitude: p.latitude[n]!,
      longitude: p.longitude[n]!,
      colour: colour ?? markerColour(p.score[n] ?? 0),
      detail: colour ? `${p.latitude[n]!.toFixed(4)}, ${p.longitude[n]!.toFixed(4)}` : `${label}: ${p.score[n] ?? 'no data'}`,
    }));
  }
  return (m.clusters ?? []).map((c) => ({
    name: c.name ?? `${c.count.toLocaleString('en-US')} assets`,
    latitude: c.latitude,
    longitude: c.longitude,
    count: c.count,
    // Coloured by the mean score of the cluster's assets (by the highest, a world view of a large book is all red).
    colour: colour ?? markerColour(c.mean ?? 0),
    detail:
      c.count > 1
        ? `${c.count.toLocaleString('en-US')} assets · mean ${label}: ${c.mean ?? 'no data'}, highest: ${c.score ?? 'no data'} · zoom in for the assets`
        : `${label}: ${c.score ?? 'no data'}`,
  }));
}

/** Asset location map of the dashboard page (one colour), from the server. */
export function ServerLocationMapSection({ sent, allowed }: { sent: DashboardFiltersSent; allowed: boolean }) {
  const { data, onViewport } = useServerMap(sent, 'Climate score', allowed);
  const points = useMemo(() => pointsOf(data, 'Climate score', '#2563eb'), [data]);
  return (
    <Section testId="section-location-map" title="Asset location" locked={!allowed} empty={!!data && data.total === 0}>
      {data && (
        <AssetMap key={points.length === 1 ? 'one' : 'many'} points={points} clustered={data.clustered} onViewport={onViewport} label="Asset location map" />
      )}
    </Section>
  );
}

/** Risk map of the dashboard page: assets (or clusters, by their mean score) coloured by the climate score or one hazard's. */
export function ServerRiskMapSection({ sent, allowed, hazards }: { sent: DashboardFiltersSent; allowed: boolean; hazards: string[] }) {
  const [hazard, setHazard] = useState<string>('Climate score');
  const { data, onViewport } = useServerMap(sent, hazard, allowed);
  const known = data?.hazards ?? hazards;
  const sel = hazard === 'Climate score' || known.includes(hazard) ? hazard : 'Climate score';
  const points = useMemo(() => pointsOf(data, sel), [data, sel]);
  return (
    <Section
      testId="section-risk-map"
      title="Risk map"
      locked={!allowed}
      empty={!!data && data.total === 0}
      extra={<RiskMapHazardSelect value={sel} onChange={setHazard} hazards={known} />}
    >
      {data && (
        <AssetMap
          key={points.length === 1 ? 'one' : 'many'}
          points={points}
          clustered={data.clustered}
          onViewport={onViewport}
          label={`World map of assets coloured by ${sel}`}
        />
      )}
      <MarkerLegend />
    </Section>
  );
}

/** The risk map's choice of colouring: the climate score or one hazard's score. */
function RiskMapHazardSelect({ value, onChange, hazards }: { value: string; onChange: (h: string) => void; hazards: readonly string[] }) {
  return (
    <Select
      size="small"
      aria-label="Risk map hazard"
      data-testid="risk-map-hazard"
      style={{ width: 170 }}
      value={value}
      onChange={onChange}
      options={['Climate score', ...hazards].map((h) => ({ value: h, label: h }))}
    />
  );
}
