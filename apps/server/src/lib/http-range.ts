/**
 * One byte range of a `Range` header (RFC 9110 §14): `bytes=a-b`, `bytes=a-` or `bytes=-n` against a body of `size`
 * bytes. `null`: answer the whole body (no header, another unit, several ranges, or a syntax this server does not
 * read, which RFC 9110 allows to ignore); `'unsatisfiable'`: 416.
 */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
