import type { IControl, Map as MapLibreMap } from 'maplibre-gl';
import { basemapConfig } from './clientConfig';
import { OFFLINE_DETAIL_MAX_ZOOM } from './basemapStyle';

/**
 * A plain note on maps zoomed beyond the offline basemap's detail (docs/maps.md "Offline coastline"): without a
 * configured street basemap the map has coastline and water to about 100 m and no streets, so above zoom
 * OFFLINE_DETAIL_MAX_ZOOM it says so instead of leaving the user to wonder about an empty map.
 */
export class StreetDetailNote implements IControl {
  private el: HTMLDivElement | null = null;
  private map: MapLibreMap | null = null;
  private readonly update = () => {
    if (!this.el || !this.map) return;
    const cfg = basemapConfig();
    const configured = Boolean(cfg.style_url || cfg.pmtiles_url);
    this.el.style.display = !configured && this.map.getZoom() > OFFLINE_DETAIL_MAX_ZOOM ? 'block' : 'none';
  };

  onAdd(map: MapLibreMap): HTMLElement {
    this.map = map;
    const el = document.createElement('div');
    el.className = 'maplibregl-ctrl crp-street-detail-note';
    el.setAttribute('role', 'note');
    el.dataset.testid = 'street-detail-note';
    el.textContent =
      'Street detail needs a street basemap: the offline map shows coastline and water only (about 100 m). An operator can add one under Settings › Street basemap.';
    this.el = el;
    map.on('zoomend', this.update);
    map.on('load', this.update);
    this.update();
    return el;
  }

  onRemove(): void {
    this.map?.off('zoomend', this.update);
    this.map?.off('load', this.update);
    this.el?.remove();
    this.el = null;
    this.map = null;
  }
}
