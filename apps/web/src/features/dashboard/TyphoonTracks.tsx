import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Card, Spin, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { AttributionControl, LngLatBounds, Map as MapLibreMap, NavigationControl } from 'maplibre-gl';
import '../../lib/maplibreWorker';
import 'maplibre-gl/dist/maplibre-gl.css';
import { TYPHOON_TRACK_RADIUS_DEFAULT_KM } from '@crp/contracts';
import { fetchTyphoonTracks, type NearbyStorm, type TyphoonTrackResponse } from '../../api/typhoonTracks';
import { firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { readUserId } from '../../lib/storage';
import { basemapStyle } from '../../lib/basemapStyle';

/** The search radius: the server's default (`@crp/contracts`). */
export const TRACK_RADIUS_KM = TYPHOON_TRACK_RADIUS_DEFAULT_KM;

/** Saffir-Simpson colours (darker than the NHC print palette so they read on the light basemap). */
export const CATEGORY_STYLE: Record<string, { label: string; colour: string }> = {
  '-1': { label: 'Depression', colour: '#60a5fa' },
  '0': { label: 'Tropical storm', colour: '#0891b2' },
  '1': { label: 'Category 1', colour: '#eab308' },
  '2': { label: 'Category 2', colour: '#f59e0b' },
  '3': { label: 'Category 3', colour: '#ea580c' },
  '4': { label: 'Category 4', colour: '#dc2626' },
  '5': { label: 'Category 5', colour: '#9d174d' },
};
const UNKNOWN = { label: 'Not reported', colour: '#94a3b8' };
const catStyle = (c: number | null) => (c === null ? UNKNOWN : (CATEGORY_STYLE[String(c)] ?? UNKNOWN));
const CAT_SHORT: Record<string, string> = { '-1': 'TD', '0': 'TS', '1': 'Cat 1', '2': 'Cat 2', '3': 'Cat 3', '4': 'Cat 4', '5': 'Cat 5' };

/** A circle of `km` around a point as a closed ring (destination formula on the sphere). */
function circleRing(lat: number, lon: number, km: number, n = 96): [number, number][] {
  const d = km / 6371.0088,
    φ1 = (lat * Math.PI) / 180,
    λ1 = (lon * Math.PI) / 180;
  const ring: [number, number][] = [];
  for (let i = 0; i <= n; i++) {
    const θ = (2 * Math.PI * i) / n;
    const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
    const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
    ring.push([(λ2 * 180) / Math.PI, (φ2 * 180) / Math.PI]);
  }
  return ring;
}

/** Longitudes unwrapped to within 180° of the asset, so tracks crossing the antimeridian draw as one line. */
const near = (lon: number, ref: number) => lon + 360 * Math.round((ref - lon) / 360);

function trackFeatures(storms: NearbyStorm[], refLon: number) {
  const features: { type: 'Feature'; geometry: { type: 'LineString'; coordinates: number[][] }; properties: Record<string, string> }[] = [];
  for (const s of storms) {
    for (let i = 0; i + 1 < s.track.length; i++) {
      const a = s.track[i]!,
        b = s.track[i + 1]!;
      const cat = a.category ?? b.category;
      const la = near(a.longitude, refLon);
      features.push({
        type: 'Feature',
        geometry: {
          type: 'LineString',
          coordinates: [
            [la, a.latitude],
            [near(b.longitude, la), b.latitude],
          ],
        },
        properties: { colour: catStyle(cat).colour, sid: s.id },
      });
    }
  }
  return { type: 'FeatureCollection' as const, features };
}

function TrackMap({ data, name, selected }: { data: TyphoonTrackResponse; name: string; selected: string | null }) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  useEffect(() => {
    if (!container.current) return;
    const { latitude: lat, longitude: lon, radius_km } = data;
    const ring = circleRing(lat, lon, radius_km).map(([x, y]) => [near(x, lon), y] as [number, number]);
    const view = circleRing(lat, lon, radius_km * 2.2, 32);
    const bounds = view.reduce((b, [x, y]) => b.extend([near(x, lon), y]), new LngLatBounds([lon, lat], [lon, lat]));
    const map = new MapLibreMap({
      container: container.current,
      style: basemapStyle('street'),
      bounds,
      fitBoundsOptions: { padding: 8 },
      attributionControl: false,
      renderWorldCopies: false,
    });
    map.addControl(new NavigationControl({ showCompass: false }), 'top-left');
    map.addControl(new AttributionControl({ compact: true, customAttribution: 'Tracks: IBTrACS, JTWC, CMA, NHC HURDAT2, IMD' }), 'bottom-right');
    map.on('load', () => {
      map.addSource('radius', { type: 'geojson', data: { type: 'Feature', geometry: { type: 'Polygon', coordinates: [ring] }, properties: {} } });
      map.addLayer({ id: 'radius-fill', type: 'fill', source: 'radius', paint: { 'fill-color': '#2563eb', 'fill-opacity': 0.06 } });
      map.addSource('tracks', { type: 'geojson', data: trackFeatures(data.storms, lon) });
      map.addLayer({
        id: 'tracks',
        type: 'line',
        source: 'tracks',
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': ['get', 'colour'], 'line-width': 1.6, 'line-opacity': 0.7 },
      });
      map.addLayer({
        id: 'track-selected',
        type: 'line',
        source: 'tracks',
        filter: ['==', ['get', 'sid'], ''],
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': ['get', 'colour'], 'line-width': 5 },
      });
      map.addLayer({ id: 'radius-halo', type: 'line', source: 'radius', paint: { 'line-color': '#ffffff', 'line-width': 4, 'line-opacity': 0.8 } });
      map.addLayer({ id: 'radius-line', type: 'line', source: 'radius', paint: { 'line-color': '#1e3a8a', 'line-width': 2, 'line-dasharray': [3, 2] } });
      map.addSource('asset', { type: 'geojson', data: { type: 'Feature', geometry: { type: 'Point', coordinates: [lon, lat] }, properties: { name } } });
      map.addLayer({
        id: 'asset',
        type: 'circle',
        source: 'asset',
        paint: { 'circle-color': '#2563eb', 'circle-radius': 6, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2 },
      });
      container.current?.setAttribute('data-loaded', 'true');
      mapRef.current = map;
      highlight(map, selectedRef.current);
    });
    return () => {
      mapRef.current = null;
      map.remove();
    };
  }, [data, name]);
  const selectedRef = useRef(selected);
  useEffect(() => {
    selectedRef.current = selected;
    if (mapRef.current) highlight(mapRef.current, selected);
  }, [selected]);
  return (
    <div
      ref={container}
      className="crp-dash-map"
      style={{ height: 320 }}
      role="region"
      aria-label={`Historical ${stormWord(data.coverage.map((c) => c.basin))} tracks within ${data.radius_km} km of ${name}`}
      data-testid="typhoon-track-map"
    />
  );
}

/** The chosen storm's track drawn wide, the others faded. */
function highlight(map: MapLibreMap, id: string | null) {
  map.setFilter('track-selected', ['==', ['get', 'sid'], id ?? '']);
  map.setPaintProperty('tracks', 'line-opacity', id ? 0.3 : 0.7);
}

function Legend() {
  return (
    <div className="crp-dash-tags" aria-label="Track colours">
      {[...Object.values(CATEGORY_STYLE), UNKNOWN].map((v) => (
        <span key={v.label}>
          <span style={{ display: 'inline-block', width: 18, height: 3, background: v.colour, verticalAlign: 'middle', marginRight: 4 }} />
          {v.label}
        </span>
      ))}
    </div>
  );
}

/**
 * Basins of the best-track records (packages/hazards/scripts/build-tracks.ts) and what a tropical cyclone is called
 * there: hurricane in the Atlantic and the eastern and central Pacific, typhoon in the western North Pacific, cyclone
 * in the Indian Ocean and the South Pacific (WMO usage; issue 37 item 7: Atlantic storms were called typhoons).
 */
const BASINS: Record<string, { name: string; storm: 'hurricane' | 'typhoon' | 'cyclone' }> = {
  NA: { name: 'North Atlantic', storm: 'hurricane' },
  EP: { name: 'eastern North Pacific', storm: 'hurricane' },
  CP: { name: 'central North Pacific', storm: 'hurricane' },
  WP: { name: 'western North Pacific', storm: 'typhoon' },
  NI: { name: 'North Indian Ocean', storm: 'cyclone' },
  SI: { name: 'South Indian Ocean', storm: 'cyclone' },
  SP: { name: 'South Pacific', storm: 'cyclone' },
};
/** The word for the storms of these basins: one basin's (or several agreeing), else "tropical cyclone". */
function stormWord(basins: readonly string[]): string {
  const words = new Set(basins.map((b) => BASINS[b]?.storm ?? 'tropical cyclone'));
  return words.size === 1 ? [...words][0]! : 'tropical cyclone';
}
/** "North Atlantic 1970-2016": each basin's records, so a record that ends early says so. */
const coverageText = (coverage: TyphoonTrackResponse['coverage']) => coverage.map((c) => `${BASINS[c.basin]?.name ?? c.basin} ${c.from}-${c.to}`).join('; ');
/** Records that end more than this many years before today are said to end (the newest storms are missing). */
const STALE_AFTER_YEARS = 3;

const wind = (ms: number | null) => (ms === null ? '—' : `${ms.toFixed(0)} m/s (${Math.round(ms * 3.6)} km/h)`);

/**
 * "Historical typhoon / hurricane / cyclone tracks" (named by basin) of the Asset Analysis Risk tab: real tropical cyclones whose best track passed within
 * 200 km of the asset (map coloured by Saffir-Simpson category, the asset and the 200 km circle, and a table).
 * Fetched only when the tab is open.
 */
export function TyphoonTracks({
  projectId,
  assetId,
  name,
  latitude,
  longitude,
  active,
}: {
  projectId: number;
  assetId: number;
  name: string;
  latitude: number;
  longitude: number;
  active: boolean;
}) {
  const userId = readUserId();
  const q = useQuery({
    queryKey: [...queryKeys.typhoonTracks(projectId, assetId), TRACK_RADIUS_KM],
    queryFn: ({ signal }) => fetchTyphoonTracks(userId!, { project_id: projectId, asset_id: assetId, radius_km: TRACK_RADIUS_KM, limit: 100 }, signal),
    enabled: active && userId !== null,
    staleTime: Infinity,
  });
  const d = q.data;
  const [selected, setSelected] = useState<string | null>(null);
  const period = useMemo(() => (d && d.coverage.length ? coverageText(d.coverage) : ''), [d]);
  const word = d && d.coverage.length ? stormWord(d.coverage.map((c) => c.basin)) : 'tropical cyclone';
  const lastYear = d && d.coverage.length ? Math.max(...d.coverage.map((c) => c.to)) : null;
  const stale = lastYear !== null && new Date().getFullYear() - lastYear > STALE_AFTER_YEARS;
  const ends = stale ? ` The records held here end in ${lastYear}: later storms are not shown.` : '';

  let body;
  if (q.isPending) body = <Spin />;
  else if (q.isError) body = <Alert type="error" showIcon title={firstErrorMessage(q.error, 'The historical tracks could not be loaded.')} />;
  else if (!d!.has_data)
    body = (
      <p className="crp-muted" data-testid="typhoon-track-nodata">
        No data: the best-track records held here do not cover the ocean basin of {name} ({latitude.toFixed(2)}, {longitude.toFixed(2)}).
      </p>
    );
  else if (d!.count === 0)
    body = (
      <p className="crp-muted" data-testid="typhoon-track-empty">
        No {word} passed within {d!.radius_km} km in the records ({period}).{ends}
      </p>
    );
  else {
    body = (
      <div className="crp-dash-two">
        <div>
          <TrackMap data={d!} name={name} selected={selected} />
          <Legend />
        </div>
        <div>
          <Table<NearbyStorm>
            size="small"
            rowKey="id"
            data-testid="typhoon-track-table"
            dataSource={d!.storms}
            onRow={(s) => ({ onClick: () => setSelected((cur) => (cur === s.id ? null : s.id)), style: { cursor: 'pointer' } })}
            rowClassName={(s) => (s.id === selected ? 'ant-table-row-selected' : '')}
            pagination={{ pageSize: 8, size: 'small', showSizeChanger: false }}
            columns={[
              { title: 'Storm', dataIndex: 'name', render: (_v, s) => s.name ?? <span className="crp-muted">Unnamed ({s.id})</span> },
              { title: 'Year', dataIndex: 'year', width: 64, sorter: (a, b) => a.year - b.year },
              {
                title: 'Category',
                dataIndex: 'category',
                width: 96,
                sorter: (a, b) => (a.category ?? -2) - (b.category ?? -2),
                render: (c: number | null, s) => (
                  <Tag color={catStyle(c).colour} title={`Lifetime maximum ${wind(s.max_wind_ms)}`}>
                    {c === null ? '—' : CAT_SHORT[String(c)]}
                  </Tag>
                ),
              },
              {
                title: 'Wind at closest approach',
                dataIndex: 'wind_at_closest_ms',
                render: (v: number | null) => wind(v),
                sorter: (a, b) => (a.wind_at_closest_ms ?? -1) - (b.wind_at_closest_ms ?? -1),
              },
              {
                title: 'Closest distance',
                dataIndex: 'closest_km',
                width: 110,
                render: (v: number) => `${v.toFixed(0)} km`,
                sorter: (a, b) => a.closest_km - b.closest_km,
                defaultSortOrder: 'ascend',
              },
            ]}
          />
          <p className="crp-muted crp-small">
            {d!.total} storms within {d!.radius_km} km in the records ({period}){d!.total > d!.count ? `, the ${d!.count} closest shown` : ''}.
            <span data-testid="typhoon-track-ends">{ends}</span> Category: Saffir-Simpson at the storm's lifetime maximum; wind: 1-minute sustained,
            interpolated along the track at its closest point. Click a storm to highlight its track. Sources:{' '}
            {d!.sources
              .filter((s) => s.basins.some((b) => d!.coverage.some((c) => c.basin === b)))
              .map((s) => s.name)
              .join('; ')}
            .
          </p>
        </div>
      </div>
    );
  }
  return (
    <Card className="crp-card crp-dash-span2" size="small" title={`Historical ${word} tracks`} data-testid="typhoon-tracks">
      {body}
    </Card>
  );
}
