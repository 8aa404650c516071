import { useCallback, useEffect, useRef, useState } from 'react';
import { uniqueName } from '@crp/contracts';
import { reverseGeocode } from '../../api/locations';

export interface MapMarker {
  id: string;
  latitude: number;
  longitude: number;
  /** Place name from reverse geocoding, or typed by the user; '' until known. */
  name: string;
  status: 'loading' | 'ready' | 'failed';
  /** The user typed the name (the geocoder failed): it is kept as typed, and a duplicate is flagged, not renamed. */
  typed?: boolean;
  country_code: string | null;
}

/** Lower-cased names used by more than one marker (the server refuses a portfolio with two assets of one name). */
export function duplicateNames(markers: MapMarker[]): Set<string> {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const m of markers) {
    const k = m.name.trim().toLowerCase();
    if (!k) continue;
    if (seen.has(k)) dup.add(k);
    seen.add(k);
  }
  return dup;
}

let seq = 0;

/**
 * Markers of the map step: each new one is named by reverse geocoding ("Loading..." until it arrives). The geocoder
 * names a place, not a building, so clicks in one district come back with one name: a name already on the list gets
 * the next number ("Central, Central and Western, Hong Kong 2"), so the wizard never sends two assets of one name.
 */
export function useMapMarkers() {
  const [markers, setMarkers] = useState<MapMarker[]>([]);
  const aborts = useRef(new Map<string, AbortController>());

  useEffect(() => {
    const all = aborts.current;
    return () => all.forEach((a) => a.abort());
  }, []);

  const patch = useCallback((id: string, p: Partial<MapMarker>) => {
    setMarkers((ms) => ms.map((m) => (m.id === id ? { ...m, ...p } : m)));
  }, []);

  const add = useCallback(
    (latitude: number, longitude: number) => {
      seq += 1;
      const id = `m${Date.now().toString(36)}${seq}`;
      const lat = Math.round(latitude * 1e6) / 1e6;
      const lon = Math.round((((longitude + 540) % 360) - 180) * 1e6) / 1e6;
      setMarkers((ms) => [...ms, { id, latitude: lat, longitude: lon, name: '', status: 'loading', country_code: null }]);
      const ctrl = new AbortController();
      aborts.current.set(id, ctrl);
      reverseGeocode(lat, lon, ctrl.signal)
        .then((r) =>
          // Numbered against the names on the list when the answer arrives (answers of quick clicks come in any order).
          setMarkers((ms) => {
            const base = (r.label || r.name || '').slice(0, 150);
            const name = base
              ? uniqueName(
                  base,
                  ms.filter((m) => m.id !== id).map((m) => m.name),
                )
              : '';
            return ms.map((m) => (m.id === id ? { ...m, name, status: 'ready', country_code: r.country_code ?? null } : m));
          }),
        )
        .catch((err: unknown) => {
          if (ctrl.signal.aborted) return;
          // Reverse geocoding failure is only logged (spec 000 §8); the user types a name instead.
          console.warn('Reverse geocoding failed', err);
          patch(id, { status: 'failed' });
        })
        .finally(() => aborts.current.delete(id));
    },
    [patch],
  );

  const remove = useCallback((id: string) => {
    aborts.current.get(id)?.abort();
    setMarkers((ms) => ms.filter((m) => m.id !== id));
  }, []);

  const rename = useCallback((id: string, name: string) => patch(id, { name, typed: true }), [patch]);
  const clear = useCallback(() => setMarkers([]), []);

  const loading = markers.some((m) => m.status === 'loading');
  const allNamed = markers.every((m) => m.name.trim().length > 0);
  const distinct = duplicateNames(markers).size === 0;
  return { markers, add, remove, rename, clear, loading, ready: markers.length > 0 && !loading && allNamed && distinct };
}
