import { useCallback, useEffect, useRef, useState } from 'react';
import { uniqueName } from '@crp/contracts';
import { reverseGeocode } from '../../api/locations';

/** One property chosen for a property-risk project (from the map, a CSV row or My Assets). */
export interface SelectedProperty {
  id: string;
  name: string;
  latitude: number;
  longitude: number;
  property_type: string;
  /** Other spec 001 §3.6 fields as typed in the CSV (already NA where the user did not keep them). */
  extra: Record<string, string>;
  source: 'map' | 'csv' | 'saved';
  /** 'loading' while the map click is being reverse-geocoded. */
  status: 'loading' | 'ready';
}

let seq = 0;
const newId = () => `p${Date.now().toString(36)}${(seq += 1)}`;
const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** The selection shared by the Asset and Multiple Asset CSV tabs. `limit` is the tier's assets_allowed (null = unknown yet). */
export function useSelectedProperties(limit: number | null, onLimit: (n: number) => void) {
  const [items, setItems] = useState<SelectedProperty[]>([]);
  const aborts = useRef(new Map<string, AbortController>());
  const itemsRef = useRef(items);
  itemsRef.current = items;

  useEffect(() => {
    const all = aborts.current;
    return () => all.forEach((a) => a.abort());
  }, []);

  const room = useCallback(
    (adding: number) => {
      if (limit !== null && itemsRef.current.length + adding > limit) {
        onLimit(limit);
        return false;
      }
      return true;
    },
    [limit, onLimit],
  );

  const addPoint = useCallback(
    (latitude: number, longitude: number) => {
      if (!room(1)) return;
      const id = newId();
      const lat = round6(latitude);
      const lon = round6(((longitude + 540) % 360) - 180);
      setItems((xs) => [...xs, { id, name: '', latitude: lat, longitude: lon, property_type: 'Residential', extra: {}, source: 'map', status: 'loading' }]);
      const ctrl = new AbortController();
      aborts.current.set(id, ctrl);
      reverseGeocode(lat, lon, ctrl.signal)
        // Numbered against the names already selected, so clicks in one district are told apart ("... Hong Kong 2").
        .then((r) =>
          setItems((xs) => {
            const name = (r.label || r.name || 'Unknown Location').slice(0, 150);
            const others = xs.filter((x) => x.id !== id).map((x) => x.name);
            return xs.map((x) => (x.id === id ? { ...x, name: x.name || uniqueName(name, others), status: 'ready' } : x));
          }),
        )
        .catch((err: unknown) => {
          if (ctrl.signal.aborted) return;
          console.warn('Reverse geocoding failed', err); // spec 001 §8: shown as 'Unknown Location'
          setItems((xs) =>
            xs.map((x) =>
              x.id === id
                ? {
                    ...x,
                    name:
                      x.name ||
                      uniqueName(
                        'Unknown Location',
                        xs.filter((o) => o.id !== id).map((o) => o.name),
                      ),
                    status: 'ready',
                  }
                : x,
            ),
          );
        })
        .finally(() => aborts.current.delete(id));
    },
    [room],
  );

  /** Adds rows not already selected (same name and coordinates); returns how many were added. */
  const addMany = useCallback(
    (rows: Omit<SelectedProperty, 'id' | 'status'>[]) => {
      const key = (r: { name: string; latitude: number; longitude: number }) => `${r.name.toLowerCase()}|${r.latitude}|${r.longitude}`;
      const have = new Set(itemsRef.current.map(key));
      const fresh = rows.filter((r) => !have.has(key(r)));
      if (fresh.length === 0 || !room(fresh.length)) return 0;
      setItems((xs) => [...xs, ...fresh.map((r) => ({ ...r, id: newId(), status: 'ready' as const }))]);
      return fresh.length;
    },
    [room],
  );

  const remove = useCallback((id: string) => {
    aborts.current.get(id)?.abort();
    setItems((xs) => xs.filter((x) => x.id !== id));
  }, []);
  const removeWhere = useCallback((pred: (x: SelectedProperty) => boolean) => setItems((xs) => xs.filter((x) => !pred(x))), []);
  const update = useCallback(
    (id: string, patch: Partial<Pick<SelectedProperty, 'name' | 'property_type'>>) => setItems((xs) => xs.map((x) => (x.id === id ? { ...x, ...patch } : x))),
    [],
  );
  const clear = useCallback(() => {
    aborts.current.forEach((a) => a.abort());
    setItems([]);
  }, []);

  const loading = items.some((x) => x.status === 'loading');
  const named = items.every((x) => x.name.trim().length > 0);
  return { items, addPoint, addMany, remove, removeWhere, update, clear, ready: items.length > 0 && !loading && named };
}

/** The compute call's `data` list: spec 001 §3.6 fields, empty values as NA. */
export function toLocations(items: SelectedProperty[]): Record<string, unknown>[] {
  return items.map((x) => ({ ...x.extra, name: x.name.trim(), latitude: x.latitude, longitude: x.longitude, property_type: x.property_type || 'NA' }));
}
