import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { AttributionControl, GeolocateControl, Map as MapLibreMap, Marker, NavigationControl, Popup, ScaleControl } from 'maplibre-gl';
import '../../lib/maplibreWorker';
import 'maplibre-gl/dist/maplibre-gl.css';
import {
  MAP_CONTAINER_HEIGHT_PX,
  MAP_EXPORT_PX,
  MAP_LEGENDS,
  MAP_TILE_LAYERS,
  MAP_TILE_MAX_ZOOM,
  MAP_TILE_MIN_ZOOM,
  MAP_TILE_OPACITY,
  MAP_TILE_SIZE,
  MAP_TILE_TIMEOUT_MS,
  MAP_VARIABLE_KEYS,
  safeFileName,
  type MapResponse,
  type MapVariable,
} from '@crp/contracts';
import { fetchMapValue } from '../../api/maps';
import { readToken } from '../../lib/storage';
import { bboxPolygon, resultsZoom } from './geometry';
import { MapLegend } from './MapLegend';
import { mapViewStyle, TERRAIN_TILES_URL, type MapView } from './mapStyles';
import './maps.css';
import { StreetDetailNote } from '../../lib/streetDetailNote';

export interface HazardMapHandle {
  /** Image export (spec 001 §4): 1850 x 1850 PNG named from the address and a timestamp. Resolves to the file name. */
  exportImage(): Promise<string | null>;
}

/** Tile URL of a dataset with the spec's parameters (spec 001 §7 "Raster tiles"). */
export function tileUrl(r: MapResponse, dataset: string): string {
  const variable = r.portfolio_variables[0] as MapVariable;
  const hazard = MAP_VARIABLE_KEYS[variable];
  const layer = MAP_TILE_LAYERS[hazard];
  const q = new URLSearchParams();
  if (hazard === 'wildfire') q.set('scenario_year', dataset);
  else q.set('return_period', dataset);
  if (r.country_code) q.set('country_code', r.country_code);
  if (r.subregion && hazard !== 'storm_surge') q.set('region_code', r.subregion);
  return `${window.location.origin}/api/v2/map_tiles/${layer}/{x}/{y}/{z}?${q}`;
}

const fmt = (v: number | null | undefined, unit: string, digits = 2) => (v === null || v === undefined ? 'n/a' : `${v.toFixed(digits)} ${unit}`);

function popupContent(variable: MapVariable, v: Awaited<ReturnType<typeof fetchMapValue>>): HTMLElement {
  const el = document.createElement('div');
  el.className = 'crp-maps-popup';
  el.setAttribute('data-testid', 'map-popup');
  const table = document.createElement('table');
  const row = (label: string, value: string, info?: string) => {
    const tr = table.insertRow();
    const th = tr.insertCell();
    th.textContent = label;
    if (info) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'i';
      b.className = 'crp-maps-info';
      b.setAttribute('aria-label', 'What is HAND?');
      b.title = 'What is HAND?';
      const p = document.createElement('p');
      p.textContent = info;
      p.style.cssText = 'display:none;max-width:240px;margin:6px 0 0;color:#555';
      p.setAttribute('data-testid', 'hand-info');
      b.onclick = () => {
        p.style.display = p.style.display === 'none' ? 'block' : 'none';
      };
      th.appendChild(b);
      el.appendChild(p);
    }
    tr.insertCell().textContent = value;
  };
  if (variable === 'Wildfire') {
    row('Baseline 2020', fmt(v.value_00_2020, '%'));
    row('SSP 8.5 2030', fmt(v.value_85_2030, '%'));
    row('SSP 8.5 2050', fmt(v.value_85_2050, '%'));
  } else {
    row(variable === 'Storm Surge' ? 'Surge depth' : 'Flood depth', fmt(v.flood, 'm'));
    row(
      'HAND',
      fmt(v.hand, 'm', 0),
      'HAND means height above nearest drainage: how many metres the ground lies above the nearest river channel (here from ETOPO5 and Natural Earth rivers, 5′ cells). Low HAND means flood-prone.',
    );
    row('Elevation', fmt(v.elevation, 'm', 0));
    row('Number of days', v.no_of_days === null ? 'n/a' : String(v.no_of_days));
    row('Slope', fmt(v.slope, '°'));
  }
  el.prepend(table);
  return el;
}

/** The results map of /map (spec 001 §2.7, §4 "Map view", §9): hazard tiles, legend, overlays, popups, image export. */
export const HazardMap = forwardRef<
  HazardMapHandle,
  { response: MapResponse; dataset: string; datasetLabel: string; view: MapView; is3D: boolean; onTilesLoading?: (loading: boolean) => void }
>(function HazardMap({ response, dataset, datasetLabel, view, is3D, onTilesLoading }, ref) {
  const frame = useRef<HTMLDivElement>(null);
  const container = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const [loading, setLoading] = useState(true);
  const [exporting, setExporting] = useState(false);
  const variable = response.portfolio_variables[0] as MapVariable;
  const hazard = MAP_VARIABLE_KEYS[variable];
  const { latitude: lat, longitude: lng } = response.coordinates;
  const stateRef = useRef({ dataset, view, is3D });
  stateRef.current = { dataset, view, is3D };
  const loadingTimer = useRef<number | null>(null);

  const setTilesLoading = (v: boolean) => {
    setLoading(v);
    onTilesLoading?.(v);
    if (loadingTimer.current) window.clearTimeout(loadingTimer.current);
    // spec 001 §4: the flag is cleared when the source has loaded, or after 5 s
    if (v)
      loadingTimer.current = window.setTimeout(() => {
        setLoading(false);
        onTilesLoading?.(false);
      }, MAP_TILE_TIMEOUT_MS);
  };

  /** Raster layer, box, and (in 3D) tilt and terrain: added on every style load (switching views re-adds them). */
  const addOverlays = (map: MapLibreMap) => {
    const { dataset: ds, view: v, is3D: three } = stateRef.current;
    if (map.getLayer('hazard')) map.removeLayer('hazard');
    if (map.getSource('hazard')) map.removeSource('hazard');
    map.addSource('hazard', {
      type: 'raster',
      tiles: [tileUrl(response, ds)],
      tileSize: MAP_TILE_SIZE,
      minzoom: MAP_TILE_MIN_ZOOM,
      maxzoom: MAP_TILE_MAX_ZOOM,
    });
    map.addLayer({
      id: 'hazard',
      type: 'raster',
      source: 'hazard',
      paint: { 'raster-opacity': MAP_TILE_OPACITY, 'raster-resampling': 'nearest', 'raster-fade-duration': 0 },
    });
    if (!map.getSource('bbox')) {
      map.addSource('bbox', { type: 'geojson', data: bboxPolygon(lat, lng, response.distance) });
      map.addLayer({
        id: 'bbox-line',
        type: 'line',
        source: 'bbox',
        paint: { 'line-color': v === 'satellite' ? '#ffffff' : '#5ad1cf', 'line-width': 2, 'line-dasharray': [2, 1] },
      });
      // the site as a canvas layer too, so the exported image shows it (the DOM marker is not part of the canvas)
      map.addSource('site', { type: 'geojson', data: { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [lng, lat] } } });
      map.addLayer({
        id: 'site',
        type: 'circle',
        source: 'site',
        paint: { 'circle-radius': 7, 'circle-color': '#e8590c', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2 },
      });
    }
    const terrain = three && v === 'street' && TERRAIN_TILES_URL;
    if (terrain && !map.getSource('dem')) {
      map.addSource('dem', { type: 'raster-dem', tiles: [TERRAIN_TILES_URL!], tileSize: 256 });
      map.setTerrain({ source: 'dem', exaggeration: 1.5 });
    } else if (!terrain && map.getTerrain()) map.setTerrain(null);
    setTilesLoading(true);
  };

  useEffect(() => {
    if (!container.current) return;
    const width = container.current.clientWidth || 1000;
    const map = new MapLibreMap({
      container: container.current,
      style: mapViewStyle(view, true),
      center: [lng, lat],
      zoom: resultsZoom(lat, response.distance, width),
      attributionControl: false,
      renderWorldCopies: false,
      canvasContextAttributes: { preserveDrawingBuffer: true },
      maxPitch: 70,
      transformRequest: (url) => (url.includes('/api/v2/map_tiles/') ? { url, headers: { Authorization: `Token ${readToken() ?? ''}` } } : { url }),
    });
    map.addControl(new NavigationControl({ visualizePitch: true }), 'top-left');
    map.addControl(new GeolocateControl({ positionOptions: { enableHighAccuracy: false }, trackUserLocation: false }), 'top-left');
    map.addControl(new ScaleControl({ unit: 'metric', maxWidth: 140 }), 'bottom-left');
    map.addControl(new AttributionControl({ compact: true }), 'bottom-left');
    map.addControl(new StreetDetailNote(), 'top-right');
    const m = new Marker({ color: '#e8590c' }).setLngLat([lng, lat]).addTo(map);
    m.getElement().setAttribute('data-testid', 'map-marker');
    map.on('style.load', () => addOverlays(map));
    map.on('sourcedata', (e) => {
      if (e.sourceId === 'hazard' && map.getSource('hazard') && map.isSourceLoaded('hazard')) setTilesLoading(false);
    });
    map.on('load', () => container.current?.setAttribute('data-loaded', 'true'));
    map.on('idle', () => container.current?.setAttribute('data-idle', String(Date.now())));
    map.on('click', (e) => {
      const { lat: la, lng: lo } = e.lngLat;
      fetchMapValue({
        latitude: la,
        longitude: lo,
        country_code: response.country_code,
        duration_data: stateRef.current.dataset,
        variable,
        subregion: response.subregion,
      })
        .then((v) => new Popup({ maxWidth: '300px' }).setLngLat([lo, la]).setDOMContent(popupContent(variable, v)).addTo(map))
        .catch(() => new Popup().setLngLat([lo, la]).setText('No value here.').addTo(map));
    });
    mapRef.current = map;
    return () => {
      if (loadingTimer.current) window.clearTimeout(loadingTimer.current);
      map.remove();
      mapRef.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [response]);

  // view switch: a new style; overlays come back on style.load
  const firstView = useRef(true);
  useEffect(() => {
    if (firstView.current) {
      firstView.current = false;
      return;
    }
    mapRef.current?.setStyle(mapViewStyle(view, true));
  }, [view]);

  // dataset change: swap the raster source
  useEffect(() => {
    const map = mapRef.current;
    if (map?.isStyleLoaded()) addOverlays(map);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dataset]);

  // 3D: tilt (and terrain where DEM tiles are configured); 2D: flat
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const three = is3D && view === 'street';
    map.easeTo({ pitch: three ? 60 : 0, bearing: three ? -20 : 0, duration: 600 });
    if (map.isStyleLoaded()) addOverlays(map);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [is3D, view]);

  useImperativeHandle(ref, () => ({
    async exportImage() {
      const map = mapRef.current,
        el = container.current;
      if (!map || !el) return null;
      setExporting(true);
      const prev = {
        width: el.style.width,
        height: el.style.height,
        center: map.getCenter(),
        zoom: map.getZoom(),
        pitch: map.getPitch(),
        bearing: map.getBearing(),
      };
      try {
        el.style.width = `${MAP_EXPORT_PX / window.devicePixelRatio}px`;
        el.style.height = `${MAP_EXPORT_PX / window.devicePixelRatio}px`;
        map.resize();
        map.jumpTo({ center: [lng, lat], zoom: resultsZoom(lat, response.distance, MAP_EXPORT_PX / window.devicePixelRatio) });
        // wait for every tile (at most about 17 s), then 2 s for the last paint (spec 001 §4)
        await new Promise<void>((resolve) => {
          const t = window.setTimeout(resolve, 17_000);
          map.once('idle', () => {
            window.clearTimeout(t);
            resolve();
          });
          map.triggerRepaint();
        });
        await new Promise((r) => window.setTimeout(r, 2000));
        const out = document.createElement('canvas');
        out.width = MAP_EXPORT_PX;
        out.height = MAP_EXPORT_PX;
        const g = out.getContext('2d')!;
        g.drawImage(map.getCanvas(), 0, 0, MAP_EXPORT_PX, MAP_EXPORT_PX);
        drawLegend(g, hazard, `${variable} · ${datasetLabel}`, response.address);
        const blob = await new Promise<Blob | null>((r) => out.toBlob(r, 'image/png'));
        if (!blob) return null;
        const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
        const name = safeFileName(`${response.address || response.name}_${stamp}.png`);
        const a = document.createElement('a');
        a.href = URL.createObjectURL(blob);
        a.download = name;
        document.body.appendChild(a);
        a.click();
        a.remove();
        window.setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
        return name;
      } catch {
        return null; // spec 001 §8: layout restored silently
      } finally {
        el.style.width = prev.width;
        el.style.height = prev.height;
        map.resize();
        map.jumpTo({ center: prev.center, zoom: prev.zoom, pitch: prev.pitch, bearing: prev.bearing });
        setExporting(false);
      }
    },
  }));

  return (
    <div ref={frame} className={`crp-maps-frame${exporting ? ' crp-maps-exporting' : ''}`} style={{ height: MAP_CONTAINER_HEIGHT_PX }}>
      <div
        ref={container}
        className="crp-maps-canvas"
        style={{ height: MAP_CONTAINER_HEIGHT_PX }}
        data-testid="results-map"
        data-view={view}
        data-3d={String(is3D && view === 'street')}
      />
      <div className="crp-maps-overlay crp-maps-title" data-testid="hazard-title">
        {variable} · {datasetLabel}
      </div>
      <div className="crp-maps-overlay crp-maps-resolution" data-testid="map-resolution">
        Resolution: {response.resolution}
      </div>
      {loading && (
        <div className="crp-maps-overlay crp-maps-loading" data-testid="tiles-loading">
          Loading tiles...
        </div>
      )}
      {exporting && <div className="crp-maps-overlay crp-maps-loading">Preparing image...</div>}
      <MapLegend hazard={hazard} />
    </div>
  );
});

/** Title and legend drawn into the exported image (the HTML overlays are not part of the WebGL canvas). */
function drawLegend(g: CanvasRenderingContext2D, hazard: keyof typeof MAP_LEGENDS, title: string, address: string) {
  const legend = MAP_LEGENDS[hazard];
  const s = MAP_EXPORT_PX / 900;
  g.save();
  g.font = `600 ${Math.round(20 * s)}px sans-serif`;
  const head = `${title} — ${address}`;
  const w = g.measureText(head).width + 32 * s;
  g.fillStyle = 'rgba(255,255,255,0.92)';
  g.fillRect((MAP_EXPORT_PX - w) / 2, 14 * s, w, 36 * s);
  g.fillStyle = '#1f2933';
  g.textBaseline = 'middle';
  g.fillText(head, (MAP_EXPORT_PX - w) / 2 + 16 * s, 32 * s);
  const rowH = 22 * s,
    boxW = 190 * s,
    boxH = (legend.classes.length + 1) * rowH + 16 * s;
  const x0 = MAP_EXPORT_PX - boxW - 16 * s,
    y0 = MAP_EXPORT_PX - boxH - 16 * s;
  g.fillStyle = 'rgba(255,255,255,0.94)';
  g.fillRect(x0, y0, boxW, boxH);
  g.fillStyle = '#1f2933';
  g.font = `600 ${Math.round(14 * s)}px sans-serif`;
  g.fillText(legend.title, x0 + 10 * s, y0 + 8 * s + rowH / 2);
  g.font = `${Math.round(13 * s)}px sans-serif`;
  legend.classes.forEach((c, i) => {
    const y = y0 + 8 * s + (i + 1) * rowH;
    g.globalAlpha = MAP_TILE_OPACITY;
    g.fillStyle = c.color;
    g.fillRect(x0 + 10 * s, y + 4 * s, 30 * s, rowH - 8 * s);
    g.globalAlpha = 1;
    g.fillStyle = '#1f2933';
    g.fillText(c.label, x0 + 50 * s, y + rowH / 2);
  });
  g.restore();
}
