import { MAP_LEGENDS, type MapHazardKey } from '@crp/contracts';

/** The legend of a hazard layer (spec 001 §9), shown at the bottom right of the map. */
export function MapLegend({ hazard }: { hazard: MapHazardKey }) {
  const legend = MAP_LEGENDS[hazard];
  return (
    <div className="crp-maps-legend" data-testid="map-legend" aria-label={`Legend: ${legend.title}`}>
      <div className="crp-maps-legend-title">{legend.title}</div>
      {legend.classes.map((c) => (
        <div key={c.label} className="crp-maps-legend-row">
          <span className="crp-maps-legend-swatch" style={{ background: c.color }} />
          <span>{c.label}</span>
        </div>
      ))}
    </div>
  );
}
