/**
 * How an uploaded text file (CSV) is decoded, the same in the server and in the web client's preview (issue 21): a
 * byte order mark decides (UTF-8, UTF-16 LE or BE, as Excel's "Unicode text" is saved); without one, UTF-8 when the
 * bytes are valid UTF-8 (plain ASCII is), else Windows-1252, what Excel on Windows writes as "CSV" (Latin-1 plus
 * curly quotes, the euro sign and a few letters in 0x80-0x9F). UTF-16 without a BOM is refused by the server.
 */
export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** The encoding a byte order mark names, or null. */
export function textBom(d: Uint8Array): Exclude<TextEncoding, 'windows-1252'> | null {
  if (d.length >= 3 && d[0] === 0xef && d[1] === 0xbb && d[2] === 0xbf) return 'utf-8';
  if (d.length >= 2 && d[0] === 0xff && d[1] === 0xfe) return 'utf-16le';
  if (d.length >= 2 && d[0] === 0xfe && d[1] === 0xff) return 'utf-16be';
  return null;
}

/** Mostly-ASCII text in UTF-16 has a zero byte in every other position and almost none in the others. */
export function looksLikeBomlessUtf16(head: Uint8Array): boolean {
  const pairs = Math.floor(Math.min(head.length, 8192) / 2);
  if (pairs < 4) return false;
  let even = 0;
  let odd = 0;
  for (let i = 0; i < pairs * 2; i += 2) {
    if (head[i] === 0) even++;
    if (head[i + 1] === 0) odd++;
  }
  return Math.max(even, odd) > 0.3 * pairs && Math.min(even, odd) < 0.05 * pairs;
}

/** Windows-1252's 0x80-0x9F (the rest is Latin-1); 0 = unassigned, kept as the control character. */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022,
  0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/** Decoded by hand: Node's TextDecoder reads the label 'windows-1252' as plain Latin-1. */
function decodeWindows1252(d: Uint8Array): string {
  const parts: string[] = [];
  for (let start = 0; start < d.length; start += 8192) {
    const codes = Array.from(d.subarray(start, start + 8192), (b) => (b >= 0x80 && b <= 0x9f && CP1252_HIGH[b - 0x80] ? CP1252_HIGH[b - 0x80]! : b));
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}

/** The text of an uploaded file and the encoding it was read as; the BOM is not part of the text. */
export function decodeText(d: Uint8Array): { text: string; encoding: TextEncoding } {
  const bom = textBom(d);
  if (bom === 'utf-16le' || bom === 'utf-16be') return { text: new TextDecoder(bom, { ignoreBOM: true }).decode(d.subarray(2)), encoding: bom };
  const body = bom === 'utf-8' ? d.subarray(3) : d;
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(body), encoding: 'utf-8' };
  } catch {
    return { text: decodeWindows1252(body), encoding: 'windows-1252' };
  }
}

/**
 * Counts the non-blank records of CSV bytes fed chunk by chunk (quote-aware: a line break inside "..." is part of
 * the cell), without decoding or keeping the text: the web wizard counts the rows of a large upload this way. A line
 * of only separators and spaces is blank, as the importers skip it. For UTF-8 and Windows-1252 (ASCII-compatible);
 * UTF-16 files are not counted here.
 */
export class CsvRecordCounter {
  private inQuotes = false;
  private lineHasContent = false;
  private records = 0;

  push(chunk: Uint8Array): void {
    let { inQuotes, lineHasContent, records } = this;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === 0x22) {
        inQuotes = !inQuotes;
        lineHasContent = true;
      } else if (b === 0x0a && !inQuotes) {
        if (lineHasContent) records++;
        lineHasContent = false;
      } else if (!lineHasContent && b !== 0x2c && b !== 0x3b && b !== 0x09 && b !== 0x20 && b !== 0x0d) {
        lineHasContent = true;
      }
    }
    this.inQuotes = inQuotes;
    this.lineHasContent = lineHasContent;
    this.records = records;
  }

  /** The number of non-blank records so far, counting an unterminated last line. */
  count(): number {
    return this.records + (this.lineHasContent ? 1 : 0);
  }
}
