import { useEffect, useRef, useState } from 'react';
import { Segmented } from 'antd';
import { AttributionControl, Map as MapLibreMap, NavigationControl, Popup, type GeoJSONSource, type GeoJSONSourceSpecification } from 'maplibre-gl';
import '../../lib/maplibreWorker';
import 'maplibre-gl/dist/maplibre-gl.css';
import { basemapStyle, type BasemapKind } from '../../lib/basemapStyle';
import { StreetDetailNote } from '../../lib/streetDetailNote';

export interface AssetPoint {
  name: string;
  latitude: number;
  longitude: number;
  colour: string;
  /** Shown in the popup, e.g. "Climate score 62". */
  detail?: string;
  /** A cluster of this many assets (server-side clustering of large selections); drawn larger. */
  count?: number;
}

/** The map's viewport as the map endpoint reads it: [west, south, east, north] (clamped to the world) and the zoom. */
export interface Viewport {
  bbox: [number, number, number, number];
  zoom: number;
}

/**
 * Zoom 16 on a single asset; for several, the world at zoom 2 (spec 001 §2.1), zoomed out further only as far as
 * needed to show every asset (a global portfolio does not fit a 600 px map at zoom 2).
 */
export function initialView(points: AssetPoint[]): { center: [number, number]; zoom: number; bounds?: [[number, number], [number, number]] } {
  const ok = points.filter((p) => Number.isFinite(p.latitude) && Number.isFinite(p.longitude));
  if (ok.length === 1) return { center: [ok[0]!.longitude, ok[0]!.latitude], zoom: 16 };
  if (ok.length === 0) return { center: [20, 20], zoom: 2 };
  const lons = ok.map((p) => p.longitude);
  const lats = ok.map((p) => p.latitude);
  const bounds: [[number, number], [number, number]] = [
    [Math.min(...lons), Math.max(-75, Math.min(...lats))],
    [Math.max(...lons), Math.min(80, Math.max(...lats))],
  ];
  return { center: [(bounds[0][0] + bounds[1][0]) / 2, (bounds[0][1] + bounds[1][1]) / 2], zoom: 2, bounds };
}

function toGeoJson(points: AssetPoint[]): GeoJSONSourceSpecification['data'] & object {
  return {
    type: 'FeatureCollection',
    features: points
      .filter((p) => Number.isFinite(p.latitude) && Number.isFinite(p.longitude))
      .map((p) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: [p.longitude, p.latitude] },
        properties: { name: p.name, colour: p.colour, detail: p.detail ?? '', count: p.count ?? 1 },
      })),
  };
}

/** A cluster (count > 1) grows with the log of its count, at most 22 px; a single asset grows with the zoom. */
const cluster = ['>', ['get', 'count'], 1] as unknown as boolean;
const clusterRadius = ['min', 22, ['+', 7, ['*', 2.5, ['ln', ['get', 'count']]]]] as unknown as number;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * A MapLibre map of asset points on the offline basemap (a GeoJSON circle layer, so 10,000 assets stay fast), with a
 * Satellite/Light switch. Clicking a point shows its name and detail.
 */
export function AssetMap({
  points,
  height = 420,
  label,
  testId,
  onViewport,
  clustered = false,
}: {
  points: AssetPoint[];
  height?: number;
  label: string;
  testId?: string;
  onViewport?: (v: Viewport) => void;
  clustered?: boolean;
}) {
  const viewportRef = useRef(onViewport);
  viewportRef.current = onViewport;
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const dataRef = useRef(toGeoJson(points));
  const [kind, setKind] = useState<BasemapKind>('street');
  const firstKind = useRef(true);

  useEffect(() => {
    if (!container.current) return;
    const view = initialView(points);
    const map = new MapLibreMap({
      container: container.current,
      style: basemapStyle('street'),
      center: view.center,
      zoom: view.zoom,
      ...(view.bounds ? { bounds: view.bounds, fitBoundsOptions: { padding: 40, maxZoom: 2 } } : {}),
      attributionControl: false,
      renderWorldCopies: false,
    });
    map.addControl(new NavigationControl({ showCompass: false }), 'top-left');
    map.addControl(new AttributionControl({ compact: true }), 'bottom-right');
    map.addControl(new StreetDetailNote(), 'top-right');
    const addPoints = () => {
      if (!map.getSource('assets')) map.addSource('assets', { type: 'geojson', data: dataRef.current });
      if (!map.getLayer('assets'))
        map.addLayer({
          id: 'assets',
          type: 'circle',
          source: 'assets',
          paint: {
            'circle-color': ['get', 'colour'],
            'circle-radius': [
              'interpolate',
              ['linear'],
              ['zoom'],
              1,
              ['case', cluster, clusterRadius, 5],
              10,
              ['case', cluster, clusterRadius, 8],
              16,
              ['case', cluster, clusterRadius, 11],
            ],
            'circle-stroke-color': '#0f172a',
            'circle-stroke-width': 1.2,
          },
        });
    };
    map.on('style.load', addPoints);
    map.on('load', () => container.current?.setAttribute('data-loaded', 'true'));
    const report = () => {
      const b = map.getBounds();
      const c = (v: number, lo: number, hi: number) => Math.round(Math.min(hi, Math.max(lo, v)) * 100) / 100;
      viewportRef.current?.({
        bbox: [c(b.getWest(), -180, 180), c(b.getSouth(), -90, 90), c(b.getEast(), -180, 180), c(b.getNorth(), -90, 90)],
        zoom: Math.max(0, Math.min(22, Math.floor(map.getZoom()))),
      });
    };
    map.on('load', report);
    map.on('moveend', report);
    map.on('click', 'assets', (e) => {
      const f = e.features?.[0];
      if (!f) return;
      const p = f.properties as { name: string; detail: string };
      new Popup({ closeButton: true })
        .setLngLat(e.lngLat)
        .setHTML(`<strong>${escapeHtml(p.name)}</strong>${p.detail ? `<br/>${escapeHtml(p.detail)}` : ''}`)
        .addTo(map);
    });
    map.on('mouseenter', 'assets', () => (map.getCanvas().style.cursor = 'pointer'));
    map.on('mouseleave', 'assets', () => (map.getCanvas().style.cursor = ''));
    mapRef.current = map;
    return () => {
      map.remove();
      mapRef.current = null;
    };
    // The map is created once; points and style follow in the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    if (firstKind.current) {
      firstKind.current = false;
      return;
    }
    mapRef.current?.setStyle(basemapStyle(kind), { diff: false });
  }, [kind]);

  const pointsKey = points.map((p) => `${p.name}|${p.latitude}|${p.longitude}|${p.colour}|${p.detail ?? ''}`).join(';');
  useEffect(() => {
    dataRef.current = toGeoJson(points);
    const src = mapRef.current?.getSource('assets') as GeoJSONSource | undefined;
    src?.setData(dataRef.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pointsKey]);

  return (
    <div className="crp-dash-map-wrap" data-testid={testId} data-points={points.length} data-clustered={clustered ? 'true' : 'false'}>
      <Segmented<BasemapKind>
        className="crp-dash-map-kind"
        size="small"
        aria-label="Basemap"
        value={kind}
        onChange={setKind}
        options={[
          { label: 'Light', value: 'street' },
          { label: 'Satellite', value: 'satellite' },
        ]}
      />
      <div ref={container} className="crp-dash-map" style={{ height }} role="region" aria-label={label} />
    </div>
  );
}
