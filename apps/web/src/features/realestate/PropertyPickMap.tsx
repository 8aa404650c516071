import { useEffect, useRef, useState } from 'react';
import { Segmented } from 'antd';
import { AttributionControl, Map as MapLibreMap, Marker, NavigationControl, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { basemapStyle, DEFAULT_CENTER, DEFAULT_ZOOM, type BasemapKind } from '../location/basemapStyle';
import type { SelectedProperty } from './useSelectedProperties';

setWorkerUrl(workerUrl);

/** The real-estate view zooms to 16 on a chosen point (spec 001 §9 map module). */
export const REAL_ESTATE_ZOOM = 16;

/** Map of the Asset tab: a click adds a property there and flies to it at zoom 16; markers follow the selection. */
export function PropertyPickMap({ items, onPick, height = 480 }: { items: SelectedProperty[]; onPick: (lat: number, lon: number) => void; height?: number }) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const markers = useRef(new Map<string, Marker>());
  const pickRef = useRef(onPick);
  pickRef.current = onPick;
  const [kind, setKind] = useState<BasemapKind>('street');

  useEffect(() => {
    if (!container.current) return;
    const map = new MapLibreMap({ container: container.current, style: basemapStyle('street'), center: DEFAULT_CENTER, zoom: DEFAULT_ZOOM, attributionControl: false, renderWorldCopies: false });
    map.addControl(new NavigationControl({ showCompass: false }), 'top-left');
    map.addControl(new AttributionControl({ compact: false }), 'bottom-right');
    map.on('click', (e) => {
      pickRef.current(e.lngLat.lat, e.lngLat.lng);
      map.flyTo({ center: e.lngLat, zoom: Math.max(map.getZoom(), REAL_ESTATE_ZOOM), speed: 1.6 });
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
  }, []);

  useEffect(() => {
    mapRef.current?.setStyle(basemapStyle(kind));
  }, [kind]);

  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const seen = new Set<string>();
    for (const p of items) {
      seen.add(p.id);
      let m = markers.current.get(p.id);
      if (!m) {
        m = new Marker({ color: '#0e7c7b' }).setLngLat([p.longitude, p.latitude]).addTo(map);
        m.getElement().setAttribute('data-testid', 'property-marker');
        markers.current.set(p.id, m);
      }
      m.getElement().setAttribute('title', p.name || 'Loading...');
    }
    for (const [id, m] of markers.current) {
      if (!seen.has(id)) {
        m.remove();
        markers.current.delete(id);
      }
    }
  }, [items]);

  return (
    <div className="crp-map-frame">
      <div ref={container} className="crp-map" style={{ height }} data-testid="realestate-map" data-style={kind} />
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
