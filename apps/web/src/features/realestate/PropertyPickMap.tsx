import { LocationMap } from '../../ui/maps/LocationMap';
import type { SelectedProperty } from './useSelectedProperties';

/** The real-estate view zooms to 16 on a chosen point (spec 001 §9 map module). */
export const REAL_ESTATE_ZOOM = 16;

/** Map of the Asset tab: a click adds a property there and flies to it at zoom 16; markers follow the selection. */
export function PropertyPickMap({ items, onPick, height = 480 }: { items: SelectedProperty[]; onPick: (lat: number, lon: number) => void; height?: number }) {
  return <LocationMap points={items} onMapClick={onPick} height={height} flyToZoom={REAL_ESTATE_ZOOM} testId="realestate-map" markerTestId="property-marker" />;
}
