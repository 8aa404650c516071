import { useEffect, useRef, useState } from 'react';
import { Segmented } from 'antd';
import { AttributionControl, Map as MapLibreMap, Marker, NavigationControl } from 'maplibre-gl';
import '../../lib/maplibreWorker';
import 'maplibre-gl/dist/maplibre-gl.css';
import { basemapStyle, DEFAULT_CENTER, DEFAULT_ZOOM, type BasemapKind } from '../../lib/basemapStyle';
import { StreetDetailNote } from '../../lib/streetDetailNote';

export interface MapPoint {
  id: string;
  latitude: number;
  longitude: number;
  name: string;
  color?: string;
}

/**
 * A MapLibre map on the offline basemap; each click reports its coordinates (and, with `flyToZoom`, flies there);
 * markers follow `points`.
 */
export function LocationMap({
  points,
  onMapClick,
  height = 520,
  flyToZoom,
  testId = 'location-map',
  markerTestId = 'map-marker',
}: {
  points: MapPoint[];
  onMapClick: (lat: number, lon: number) => void;
  height?: number;
  flyToZoom?: number;
  testId?: string;
  markerTestId?: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const markers = useRef(new Map<string, Marker>());
  const clickRef = useRef(onMapClick);
  clickRef.current = onMapClick;
  const [kind, setKind] = useState<BasemapKind>('street');

  useEffect(() => {
    if (!container.current) return;
    const map = new MapLibreMap({
      container: container.current,
      style: basemapStyle('street'),
      center: DEFAULT_CENTER,
      zoom: DEFAULT_ZOOM,
      attributionControl: false,
      renderWorldCopies: false,
    });
    map.addControl(new NavigationControl({ showCompass: false }), 'top-left');
    map.addControl(new AttributionControl({ compact: false }), 'bottom-right');
    map.addControl(new StreetDetailNote(), 'top-right');
    map.on('click', (e) => {
      clickRef.current(e.lngLat.lat, e.lngLat.lng);
      if (flyToZoom !== undefined) map.flyTo({ center: e.lngLat, zoom: Math.max(map.getZoom(), flyToZoom), speed: 1.6 });
    });
    map.on('load', () => container.current?.setAttribute('data-loaded', 'true'));
    mapRef.current = map;
    const all = markers.current;
    return () => {
      all.forEach((m) => m.remove());
      all.clear();
      map.remove();
      mapRef.current = null;
    };
    // The map is made once; flyToZoom is fixed for a map's life.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see above
  }, []);

  useEffect(() => {
    mapRef.current?.setStyle(basemapStyle(kind));
  }, [kind]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const seen = new Set<string>();
    for (const p of points) {
      seen.add(p.id);
      let m = markers.current.get(p.id);
      if (!m) {
        m = new Marker({ color: p.color ?? '#0e7c7b' }).setLngLat([p.longitude, p.latitude]).addTo(map);
        m.getElement().setAttribute('data-testid', markerTestId);
        markers.current.set(p.id, m);
      }
      m.getElement().setAttribute('title', p.name || 'Loading...');
      m.getElement().setAttribute('aria-label', p.name || 'Loading...');
    }
    for (const [id, m] of markers.current) {
      if (!seen.has(id)) {
        m.remove();
        markers.current.delete(id);
      }
    }
  }, [points, markerTestId]);

  return (
    <div className="crp-map-frame">
      <div ref={container} className="crp-map" style={{ height }} data-testid={testId} data-style={kind} />
      <Segmented
        className="crp-map-style-toggle"
        value={kind}
        onChange={(v) => setKind(v as BasemapKind)}
        options={[
          { value: 'street', label: 'Street' },
          { value: 'satellite', label: 'Satellite' },
        ]}
        aria-label="Map style"
      />
    </div>
  );
}
