import type { PlaceHit } from '../../api/maps';

/**
 * Address search of the map module over the offline gazetteer (docs/maps.md "Address search"). The gazetteer has
 * countries, regions, districts, places and localities (GeoNames, Natural Earth), not streets: a street address is
 * answered with the place its other parts name ("88 Queensway, Admiralty, Hong Kong" finds Admiralty), said so,
 * and when nothing matches the user is told why instead of seeing an empty list.
 */
const STREET_WORDS =
  /\b(street|st|road|rd|avenue|ave|lane|ln|way|drive|dr|boulevard|blvd|highway|hwy|terrace|court|ct|square|sq|crescent|path|parade|quay|plaza|building|bldg|tower|floor|flat|unit|block|queensway)\b|[街道路里號号]/i;

/** True when the text looks like a street address: a house number with words, or a street word. */
export function looksLikeStreetAddress(q: string): boolean {
  const t = q.trim();
  return (/\d/.test(t) && /\p{L}{3,}/u.test(t)) || STREET_WORDS.test(t);
}

/** The parts of an address the gazetteer may know, most specific first: the comma parts without numbers or street words. */
export function placeQueries(q: string): string[] {
  const parts = q
    .split(/[,，]/)
    .map((p) => p.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (/\d/.test(p) || STREET_WORDS.test(p) || p.length < 2) continue;
    out.push(parts.slice(i).join(', '));
    if (i + 1 < parts.length) out.push(p);
  }
  return [...new Set(out)];
}

export type AddressSearchResult = { hits: PlaceHit[]; note: string | null; approximate: boolean };

/** Searches the text, then, for a street address without a match, the places it names. */
export async function searchAddress(q: string, search: (q: string) => Promise<PlaceHit[]>): Promise<AddressSearchResult> {
  const direct = await search(q);
  if (direct.length) return { hits: direct, note: null, approximate: false };
  if (looksLikeStreetAddress(q)) {
    for (const p of placeQueries(q)) {
      const hits = await search(p);
      if (hits.length)
        return {
          hits,
          approximate: true,
          note: `Street addresses are not in the offline gazetteer (it has countries, regions, districts and places): showing "${p}" from your address. Pick it, then click the map at the exact spot.`,
        };
    }
    return {
      hits: [],
      approximate: false,
      note: 'Street addresses need a street-level geocoder, which this installation does not have offline. Search the district or city (for example "Kwun Tong"), then click the map at the exact spot.',
    };
  }
  return {
    hits: [],
    approximate: false,
    note: `No place matches "${q.trim()}". The offline gazetteer has countries, regions, districts and places; street addresses are not in it.`,
  };
}
