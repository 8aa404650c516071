/**
 * Text normalisation shared by the data build and the search functions, so that a key built at build time and
 * a query typed at run time are compared in the same form.
 */

const SPECIAL: Record<string, string> = {
  ß: 'ss',
  ø: 'o',
  Ø: 'o',
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  đ: 'd',
  Đ: 'd',
  ł: 'l',
  Ł: 'l',
  ı: 'i',
  þ: 'th',
  Þ: 'th',
  ð: 'd',
  Ð: 'd',
  ħ: 'h',
  ŧ: 't',
};
const SPECIAL_RE = /[ßøØæÆœŒđĐłŁıþÞðÐħŧ]/g;
const ASCII_RE = /^[\x20-\x7e]*$/;
const NON_ALNUM_ASCII = /[^a-z0-9]+/g;

/**
 * Lower case, diacritics removed (NFKD, combining marks dropped), a few letters folded (ß → ss, ø → o...),
 * punctuation turned into spaces, spaces collapsed. CJK and other scripts are kept as they are.
 * `normalizeText("São Paulo") === "sao paulo"`, `normalizeText("St. John's") === "st john s"`.
 */
export function normalizeText(s: string): string {
  if (ASCII_RE.test(s)) return s.toLowerCase().replace(NON_ALNUM_ASCII, ' ').trim();
  return s
    .replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** ASCII transliteration for display (`"Zürich"` → `"Zurich"`): diacritics removed, case kept. */
export function asciiFold(s: string): string {
  return s
    .replace(SPECIAL_RE, (c) => SPECIAL[c] ?? c)
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

/** Bit mask of the letters a-z and digits (folded into 26 + 5 bits) in a normalised key: a cheap edit-distance filter. */
export function charMask(s: string, length = s.length): number {
  let m = 0;
  const n = Math.min(length, s.length);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 97 && c <= 122) m |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) m |= 1 << (26 + ((c - 48) % 5));
    else if (c !== 32) m |= 1 << 31;
  }
  return m;
}

/** Number of set bits of a 32-bit integer. */
export function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Optimal-string-alignment distance (Levenshtein plus adjacent transposition) between `a` and `b`, or `max + 1`
 * as soon as it is certain to exceed `max`; `bLength` compares only that prefix of `b`. Allocation-free apart from
 * three rows reused across calls.
 */
let rowPrev2 = new Int32Array(64);
let rowPrev = new Int32Array(64);
let rowCur = new Int32Array(64);
export function boundedEditDistance(a: string, b: string, max: number, bLength = b.length): number {
  const la = a.length;
  const lb = Math.min(bLength, b.length);
  if (Math.abs(la - lb) > max) return max + 1;
  if (la === 0) return lb;
  if (lb === 0) return la;
  if (lb + 1 > rowCur.length) {
    rowPrev2 = new Int32Array(lb + 1);
    rowPrev = new Int32Array(lb + 1);
    rowCur = new Int32Array(lb + 1);
  }
  let p2 = rowPrev2;
  let p = rowPrev;
  let c = rowCur;
  for (let j = 0; j <= lb; j++) p[j] = j;
  for (let i = 1; i <= la; i++) {
    c[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= lb; j++) {
      const cb = b.charCodeAt(j - 1);
      const cost = ca === cb ? 0 : 1;
      let v = p[j - 1]! + cost;
      const del = p[j]! + 1;
      if (del < v) v = del;
      const ins = c[j - 1]! + 1;
      if (ins < v) v = ins;
      if (i > 1 && j > 1 && ca === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === cb) {
        const t = p2[j - 2]! + 1;
        if (t < v) v = t;
      }
      c[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    const t = p2;
    p2 = p;
    p = c;
    c = t;
  }
  const d = p[lb]!;
  return d > max ? max + 1 : d;
}
