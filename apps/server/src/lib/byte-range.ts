/**
 * One byte range of a file of `size` bytes from a Range header (RFC 9110 §14.1.2): `bytes=a-b`, `bytes=a-` or
 * `bytes=-n` (the last n). Only single ranges: PMTiles readers and download resumers ask for one at a time. Null when unsatisfiable.
 */
export function parseRange(header: string, size: number): { start: number; end: number } | null | 'ignore' {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'ignore'; // malformed or multi-range: the whole file (RFC 9110 allows)
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return null;
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return null;
  return { start, end };
}
