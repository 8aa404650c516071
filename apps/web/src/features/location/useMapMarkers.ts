import { useCallback, useEffect, useRef, useState } from 'react';
import { reverseGeocode } from '../../api/locations';

export interface MapMarker {
  id: string;
  latitude: number;
  longitude: number;
  /** Place name from reverse geocoding, or typed by the user; '' until known. */
  name: string;
  status: 'loading' | 'ready' | 'failed';
  country_code: string | null;
}

let seq = 0;

/** Markers of the map step: each new one is named by reverse geocoding ("Loading..." until it arrives). */
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
        .then((r) => patch(id, { name: (r.label || r.name || '').slice(0, 150), status: 'ready', country_code: r.country_code ?? null }))
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

  const rename = useCallback((id: string, name: string) => patch(id, { name, status: 'ready' }), [patch]);
  const clear = useCallback(() => setMarkers([]), []);

  const loading = markers.some((m) => m.status === 'loading');
  const allNamed = markers.every((m) => m.name.trim().length > 0);
  return { markers, add, remove, rename, clear, loading, ready: markers.length > 0 && !loading && allNamed };
}
