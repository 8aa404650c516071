import { useEffect, useRef } from 'react';
import { AttributionControl, Map as MapLibreMap, Marker, NavigationControl, type GeoJSONSource } from 'maplibre-gl';
import '../../lib/maplibreWorker';
import 'maplibre-gl/dist/maplibre-gl.css';
import { MAP_INITIAL_CENTER, MAP_INITIAL_ZOOM, MAP_LOCATION_ZOOM } from '@crp/contracts';
import { bboxPolygon, type FeatureCollection, type PolygonFeature } from './geometry';
import { mapViewStyle, type MapView } from './mapStyles';
import './maps.css';
import { StreetDetailNote } from '../../lib/streetDetailNote';

export interface PickedLocation {
  latitude: number;
  longitude: number;
  address: string;
}

const EMPTY: FeatureCollection = { type: 'FeatureCollection', features: [] };

/** The /create-map map: one marker (click or search), the analysis box around it, Satellite/Street. */
export function PickLocationMap({
  location,
  distance,
  view,
  onPick,
  height = 560,
}: {
  location: PickedLocation | null;
  distance: number;
  view: MapView;
  onPick: (lat: number, lng: number) => void;
  height?: number;
}) {
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const marker = useRef<Marker | null>(null);
  const pickRef = useRef(onPick);
  pickRef.current = onPick;
  const boxRef = useRef<PolygonFeature | FeatureCollection>(EMPTY);

  const addBox = (map: MapLibreMap) => {
    if (map.getSource('bbox')) return;
    map.addSource('bbox', { type: 'geojson', data: boxRef.current });
    map.addLayer({ id: 'bbox-fill', type: 'fill', source: 'bbox', paint: { 'fill-color': '#0e7c7b', 'fill-opacity': 0.12 } });
    map.addLayer({ id: 'bbox-line', type: 'line', source: 'bbox', paint: { 'line-color': '#0e7c7b', 'line-width': 2 } });
  };

  useEffect(() => {
    if (!container.current) return;
    const map = new MapLibreMap({
      container: container.current,
      style: mapViewStyle(view),
      center: MAP_INITIAL_CENTER,
      zoom: MAP_INITIAL_ZOOM,
      attributionControl: false,
      renderWorldCopies: false,
    });
    map.addControl(new NavigationControl({ showCompass: false }), 'top-left');
    map.addControl(new AttributionControl({ compact: false }), 'bottom-right');
    map.addControl(new StreetDetailNote(), 'top-right');
    map.on('click', (e) => pickRef.current(e.lngLat.lat, e.lngLat.lng));
    map.on('style.load', () => addBox(map));
    map.on('load', () => container.current?.setAttribute('data-loaded', 'true'));
    // The zoom reached, for the browser tests and assistive tools: the map's detail depends on it.
    map.on('zoomend', () => container.current?.setAttribute('data-zoom', map.getZoom().toFixed(2)));
    mapRef.current = map;
    return () => {
      marker.current?.remove();
      marker.current = null;
      map.remove();
      mapRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    mapRef.current?.setStyle(mapViewStyle(view));
  }, [view]);

  const lat = location?.latitude,
    lng = location?.longitude;
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    if (lat === undefined || lng === undefined) {
      marker.current?.remove();
      marker.current = null;
      boxRef.current = EMPTY;
    } else {
      if (!marker.current) {
        marker.current = new Marker({ color: '#0e7c7b' }).setLngLat([lng, lat]).addTo(map);
        marker.current.getElement().setAttribute('data-testid', 'map-marker');
      } else marker.current.setLngLat([lng, lat]);
      boxRef.current = bboxPolygon(lat, lng, distance);
    }
    (map.getSource('bbox') as GeoJSONSource | undefined)?.setData(boxRef.current);
  }, [lat, lng, distance]);

  // fly to a newly chosen place (spec 001 §9: zoom 12)
  useEffect(() => {
    if (lat === undefined || lng === undefined) return;
    mapRef.current?.flyTo({ center: [lng, lat], zoom: Math.max(MAP_LOCATION_ZOOM, mapRef.current.getZoom()), duration: 800 });
  }, [lat, lng]);

  return <div ref={container} className="crp-maps-canvas" style={{ height }} data-testid="create-map-map" data-view={view} />;
}
