/**
 * Point-in-country over Natural Earth 1:10m admin-0 polygons (public domain; npm `world-atlas@2.0.2`, simplified at
 * build time, see `scripts/build-data.ts`), with ISO codes from `datasets/country-codes` and names from
 * `world-countries@5.1.0`.
 *
 * Index: a 1° grid over the globe. A cell that no border crosses has one answer for the whole cell (cached on first
 * use); otherwise only the countries whose edges cross the cell are tested, each with an even-odd ray cast over the
 * edges of one latitude slab of that country (a per-country slab index), so a lookup touches a few dozen edges.
 */
import { countriesFile, lazy } from './data.js';
import { checkLatLng } from './errors.js';

/** Country answer of {@link countryOf}. */
export interface CountryInfo {
  /** ISO 3166-1 alpha-2, null for areas Natural Earth draws as disputed (Siachen Glacier, Spratly Is. ...). */
  country_code: string | null;
  /** ISO 3166-1 alpha-3. */
  country_code3: string | null;
  /** Common English name. */
  country: string;
}

interface CountryShape {
  info: CountryInfo;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
  /** Edges: x1, y1, x2, y2 (degrees). */
  edges: Float64Array;
  slabMinY: number;
  slabH: number;
  nSlabs: number;
  slabStart: Int32Array;
  slabEdges: Int32Array;
  repLat: number;
  repLng: number;
}

const CELL = 1; // degrees
const NX = 360 / CELL;
const NY = 180 / CELL;

interface CountryIndex {
  shapes: CountryShape[];
  /** Per grid cell: start offset into cellCountries (CSR). */
  cellStart: Int32Array;
  cellCountries: Int16Array;
  /** Cached answer for cells crossed by no edge: -2 unknown, -1 none, else shape index. */
  cellAnswer: Int16Array;
}

// eslint-disable-next-line max-lines-per-function -- start-up build of the country index, not on the request path
function buildShapes(): CountryIndex {
  const f = countriesFile();
  const [sx, sy] = f.transform.scale;
  const [tx, ty] = f.transform.translate;
  const arcs: Float64Array[] = f.arcs.map((a) => {
    const out = new Float64Array(a.length);
    let x = 0;
    let y = 0;
    for (let i = 0; i < a.length; i += 2) {
      x += a[i]!;
      y += a[i + 1]!;
      out[i] = x * sx + tx;
      out[i + 1] = y * sy + ty;
    }
    return out;
  });
  const shapes: CountryShape[] = [];
  const cellLists: number[][] = Array.from({ length: NX * NY }, () => []);
  for (const c of f.countries) {
    const xs: number[] = [];
    for (const poly of c.polygons) {
      for (const ring of poly) {
        const pts: number[] = [];
        for (const ref of ring) {
          const a = arcs[ref < 0 ? ~ref : ref]!;
          const n = a.length / 2;
          for (let k = 0; k < n; k++) {
            const idx = ref < 0 ? n - 1 - k : k;
            if (k === 0 && pts.length) continue; // shared endpoint with the previous arc
            pts.push(a[idx * 2]!, a[idx * 2 + 1]!);
          }
        }
        for (let i = 0; i + 3 < pts.length; i += 2) xs.push(pts[i]!, pts[i + 1]!, pts[i + 2]!, pts[i + 3]!);
      }
    }
    const edges = Float64Array.from(xs);
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < edges.length; i += 2) {
      const x = edges[i]!;
      const y = edges[i + 1]!;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    const nEdges = edges.length / 4;
    const nSlabs = Math.max(1, Math.min(4096, Math.ceil(nEdges / 6)));
    const slabH = (maxY - minY) / nSlabs || 1;
    const counts = new Int32Array(nSlabs + 1);
    const slabOf = (y: number) => Math.min(nSlabs - 1, Math.max(0, Math.floor((y - minY) / slabH)));
    for (let e = 0; e < nEdges; e++) {
      const y1 = edges[e * 4 + 1]!;
      const y2 = edges[e * 4 + 3]!;
      const a = slabOf(Math.min(y1, y2));
      const b = slabOf(Math.max(y1, y2));
      for (let s = a; s <= b; s++) counts[s + 1]!++;
    }
    for (let s = 0; s < nSlabs; s++) counts[s + 1]! += counts[s]!;
    const slabEdges = new Int32Array(counts[nSlabs]!);
    const fill = counts.slice(0, nSlabs);
    for (let e = 0; e < nEdges; e++) {
      const y1 = edges[e * 4 + 1]!;
      const y2 = edges[e * 4 + 3]!;
      const a = slabOf(Math.min(y1, y2));
      const b = slabOf(Math.max(y1, y2));
      for (let s = a; s <= b; s++) slabEdges[fill[s]!++] = e;
    }
    const si = shapes.length;
    for (let e = 0; e < nEdges; e++) {
      const x1 = edges[e * 4]!;
      const y1 = edges[e * 4 + 1]!;
      const x2 = edges[e * 4 + 2]!;
      const y2 = edges[e * 4 + 3]!;
      const cx0 = cellX(Math.min(x1, x2));
      const cx1 = cellX(Math.max(x1, x2));
      const cy0 = cellY(Math.min(y1, y2));
      const cy1 = cellY(Math.max(y1, y2));
      for (let cy = cy0; cy <= cy1; cy++)
        for (let cx = cx0; cx <= cx1; cx++) {
          const l = cellLists[cy * NX + cx]!;
          if (l[l.length - 1] !== si) l.push(si);
        }
    }
    shapes.push({
      info: { country_code: c.a2, country_code3: c.a3, country: c.name },
      minX,
      minY,
      maxX,
      maxY,
      edges,
      slabMinY: minY,
      slabH,
      nSlabs,
      slabStart: counts,
      slabEdges,
      repLat: c.lat,
      repLng: c.lng,
    });
  }
  const cellStart = new Int32Array(NX * NY + 1);
  for (let i = 0; i < NX * NY; i++) cellStart[i + 1] = cellStart[i]! + cellLists[i]!.length;
  const cellCountries = new Int16Array(cellStart[NX * NY]!);
  for (let i = 0; i < NX * NY; i++) cellCountries.set(cellLists[i]!, cellStart[i]!);
  return { shapes, cellStart, cellCountries, cellAnswer: new Int16Array(NX * NY).fill(-2) };
}

function cellX(x: number): number {
  return Math.min(NX - 1, Math.max(0, Math.floor((x + 180) / CELL)));
}
function cellY(y: number): number {
  return Math.min(NY - 1, Math.max(0, Math.floor((y + 90) / CELL)));
}

const index = lazy(buildShapes);

/** Even-odd test of one point against one country (all its rings, holes included). */
function inShape(s: CountryShape, x: number, y: number): boolean {
  if (x < s.minX || x > s.maxX || y < s.minY || y > s.maxY) return false;
  let slab = Math.floor((y - s.slabMinY) / s.slabH);
  if (slab >= s.nSlabs) slab = s.nSlabs - 1;
  if (slab < 0) slab = 0;
  const e = s.edges;
  const list = s.slabEdges;
  let inside = false;
  for (let k = s.slabStart[slab]!, end = s.slabStart[slab + 1]!; k < end; k++) {
    const o = list[k]! * 4;
    const y1 = e[o + 1]!;
    const y2 = e[o + 3]!;
    if (y1 > y !== y2 > y) {
      const x1 = e[o]!;
      if (x < x1 + ((y - y1) * (e[o + 2]! - x1)) / (y2 - y1)) inside = !inside;
    }
  }
  return inside;
}

/** Shape index containing the point, or -1. `lng` must already be in [-180, 180). */
export function shapeIndexAt(lat: number, lng: number): number {
  const ix = index();
  // Natural Earth's 1:10m Antarctica (as in world-atlas) stops at 85.2°S; everything south of it is Antarctica.
  const cell = cellY(lat) * NX + cellX(lng);
  const a = ix.cellStart[cell]!;
  const b = ix.cellStart[cell + 1]!;
  if (a === b) {
    let ans = ix.cellAnswer[cell]!;
    if (ans === -2) {
      ans = -1;
      const cy = (Math.floor((lat + 90) / CELL) + 0.5) * CELL - 90;
      const cx = (Math.floor((lng + 180) / CELL) + 0.5) * CELL - 180;
      for (let i = 0; i < ix.shapes.length; i++)
        if (inShape(ix.shapes[i]!, cx, cy)) {
          ans = i;
          break;
        }
      ix.cellAnswer[cell] = ans;
    }
    if (ans === -1 && lat < -85) return antarcticaIndex();
    return ans;
  }
  for (let k = a; k < b; k++) {
    const si = ix.cellCountries[k]!;
    if (inShape(ix.shapes[si]!, lng, lat)) return si;
  }
  return lat < -85 ? antarcticaIndex() : -1;
}

const antarcticaIndex = lazy(() => index().shapes.findIndex((s) => s.info.country_code === 'AQ'));

/** Country info of a shape index. */
export function shapeInfo(i: number): CountryInfo {
  return index().shapes[i]!.info;
}

/**
 * Fast point-in-country. Returns the country containing the point (Natural Earth 1:10m borders, simplified to about
 * 300 m), or null at sea. `options.nearestWithinKm` also accepts a point at sea within that distance of a
 * country's coast (for coastal assets that the simplified coastline leaves in the water).
 */
export function countryOf(lat: number, lng: number, options: { nearestWithinKm?: number } = {}): CountryInfo | null {
  const x = checkLatLng(lat, lng);
  const i = shapeIndexAt(lat, x);
  if (i >= 0) return index().shapes[i]!.info;
  const within = options.nearestWithinKm ?? 0;
  if (within > 0) {
    const n = nearestShape(lat, x, within);
    if (n) return index().shapes[n.index]!.info;
  }
  return null;
}

const KM_PER_DEG_LAT = 110.574;
const KM_PER_DEG_LNG_EQ = 111.32;

/** Nearest country border/coast within `maxKm` of a point (local equirectangular distance, fine below ~200 km). */
export function nearestShape(lat: number, lng: number, maxKm: number): { index: number; distanceKm: number } | null {
  const ix = index();
  const kx = KM_PER_DEG_LNG_EQ * Math.max(Math.cos((lat * Math.PI) / 180), 1e-6);
  const dLat = maxKm / KM_PER_DEG_LAT;
  const dLng = maxKm / kx;
  let best = -1;
  let bestD = maxKm;
  // candidate countries: those with edges in the 1° cells around the point (none at all in open ocean)
  const cands = new Set<number>();
  const cy0 = cellY(lat - dLat);
  const cy1 = cellY(lat + dLat);
  const span = Math.min(NX, Math.floor(dLng / CELL) + 2);
  const cx = Math.floor((lng + 180) / CELL);
  for (let cy = cy0; cy <= cy1; cy++) {
    for (let k = -span; k <= span; k++) {
      const c = cy * NX + ((((cx + k) % NX) + NX) % NX);
      for (let j = ix.cellStart[c]!, end = ix.cellStart[c + 1]!; j < end; j++) cands.add(ix.cellCountries[j]!);
    }
  }
  for (const si of cands) {
    const s = ix.shapes[si]!;
    if (lat + dLat < s.minY || lat - dLat > s.maxY) continue;
    // longitude overlap, allowing for the antimeridian
    const wraps = lng - dLng < -180 || lng + dLng > 180;
    if (!wraps && (lng + dLng < s.minX || lng - dLng > s.maxX)) continue;
    const e = s.edges;
    const s0 = Math.max(0, Math.floor((lat - dLat - s.slabMinY) / s.slabH));
    const s1 = Math.min(s.nSlabs - 1, Math.floor((lat + dLat - s.slabMinY) / s.slabH));
    for (let slab = s0; slab <= s1; slab++) {
      for (let k = s.slabStart[slab]!, end = s.slabStart[slab + 1]!; k < end; k++) {
        const o = s.slabEdges[k]! * 4;
        let ax = e[o]! - lng;
        let bx = e[o + 2]! - lng;
        if (ax > 180) ax -= 360;
        else if (ax < -180) ax += 360;
        if (bx > 180) bx -= 360;
        else if (bx < -180) bx += 360;
        if ((ax > dLng && bx > dLng) || (ax < -dLng && bx < -dLng)) continue;
        const px = ax * kx;
        const py = (e[o + 1]! - lat) * KM_PER_DEG_LAT;
        const qx = bx * kx;
        const qy = (e[o + 3]! - lat) * KM_PER_DEG_LAT;
        const dx = qx - px;
        const dy = qy - py;
        const len2 = dx * dx + dy * dy;
        let t = len2 > 0 ? -(px * dx + py * dy) / len2 : 0;
        if (t < 0) t = 0;
        else if (t > 1) t = 1;
        const d = Math.hypot(px + t * dx, py + t * dy);
        if (d < bestD) {
          bestD = d;
          best = si;
        }
      }
    }
  }
  return best >= 0 ? { index: best, distanceKm: bestD } : null;
}

/** Representative point of a shape's country (world-countries `latlng`). */
export function shapeRepresentativePoint(i: number): { lat: number; lng: number } {
  const s = index().shapes[i]!;
  return { lat: s.repLat, lng: s.repLng };
}

/** Loads and indexes the polygons now (otherwise done on first use). */
export function warmCountries(): void {
  index();
}
