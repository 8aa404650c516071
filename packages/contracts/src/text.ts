import { isNA } from './assets.js';

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
 * The delimiter of CSV text as the server's large-CSV parser guesses it: the most frequent of comma, semicolon, tab
 * and bar on the first line (quotes toggle, at most 65,536 characters from `from`); comma on a tie.
 */
export function guessCsvDelimiter(text: string, from = 0): string {
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0, '|': 0 };
  let quoted = false;
  for (let i = from; i < text.length && i < from + 65_536; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c in counts) counts[c]! += 1;
  }
  let best = ',';
  for (const c of [';', '\t', '|']) if (counts[c]! > counts[best]!) best = c;
  return best;
}

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
/** Bytes of the first line kept to guess the delimiter (65,536 characters of at most 4 bytes). */
const HEAD_LIMIT = 4 * 65_536;

/**
 * Bytes that can be part of an NA cell (isNA: blank, "NA", "N/A", "null", "none", "-", "--", "NaN", any case, spaces
 * around): ASCII whitespace, the letters of those words, "/" and "-". Any other ASCII byte makes its row an asset.
 * Bytes from 0x80 are kept and decoded with the cell (a no-break space is whitespace too).
 */
const MAYBE_NA = new Uint8Array(128);
for (const ch of ' \t\n\r\v\fnNaAuUlLoOeE/-') MAYBE_NA[ch.charCodeAt(0)] = 1;

/**
 * Counts the records of CSV bytes fed chunk by chunk that the server imports as assets, without decoding or keeping
 * the text: the web wizard counts the rows of a large upload this way, so the count it shows and checks against the
 * asset allowance is the server's. The rules are the server's large-CSV parser's (parseCsvRows in
 * apps/server/src/modules/projects/asset-import.ts): the delimiter guessed from the first line (guessCsvDelimiter);
 * a cell starting with a quote is quoted up to its closing quote ("" is a quote, line breaks inside are part of the
 * cell), a quote elsewhere is a character; CR, LF or CRLF end a record; and a record whose every cell is empty or NA
 * is skipped (isBlankRow). For UTF-8 and Windows-1252 (ASCII-compatible); UTF-16 files are not counted here.
 */
export class CsvRecordCounter {
  /** Bytes before the delimiter is known (up to the end of the first line). */
  private head: Uint8Array[] | null = [];
  private headBytes = 0;
  private headQuoted = false;
  private delimiter = 0x2c;
  private atCellStart = true;
  private quoted = false;
  /** A quote inside a quoted cell: it closes the cell, unless the next byte is a quote too. */
  private quotePending = false;
  private lineHasContent = false;
  /** The bytes of the current cell while its row may still be blank. */
  private cell: number[] = [];
  private records = 0;

  push(chunk: Uint8Array): void {
    if (this.head) {
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (!this.headComplete(chunk)) return;
      this.startBody();
      return;
    }
    this.scan(chunk);
  }

  /** The number of asset records so far, counting an unterminated last line. */
  count(): number {
    if (this.head) this.startBody();
    if (this.lineHasContent) return this.records + 1;
    return this.records + (this.cell.length > 0 && !isNA(decodeText(Uint8Array.from(this.cell)).text) ? 1 : 0);
  }

  /** Whether the first line has ended (a line break outside quotes) or is as long as the server looks. */
  private headComplete(chunk: Uint8Array): boolean {
    let quoted = this.headQuoted;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === QUOTE) quoted = !quoted;
      else if (!quoted && (b === LF || b === CR)) return true;
    }
    this.headQuoted = quoted;
    return this.headBytes >= HEAD_LIMIT;
  }

  /** Guesses the delimiter from the buffered head (without its byte order mark), then counts the head. */
  private startBody(): void {
    const parts = this.head ?? [];
    this.head = null;
    let all = new Uint8Array(this.headBytes);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    if (textBom(all) === 'utf-8') all = all.subarray(3);
    this.delimiter = guessCsvDelimiter(decodeText(all.subarray(0, HEAD_LIMIT)).text).charCodeAt(0);
    this.scan(all);
  }

  private scan(chunk: Uint8Array): void {
    const delimiter = this.delimiter;
    const cell = this.cell;
    let { atCellStart, quoted, quotePending, lineHasContent, records } = this;
    const endCell = () => {
      if (!lineHasContent && cell.length > 0 && !isNA(decodeText(Uint8Array.from(cell)).text)) lineHasContent = true;
      cell.length = 0;
      atCellStart = true;
    };
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (quotePending) {
        quotePending = false;
        if (b === QUOTE) {
          if (!lineHasContent) lineHasContent = true; // a quote character is content
          continue;
        }
        quoted = false;
      }
      if (quoted) {
        if (b === QUOTE) quotePending = true;
        else if (!lineHasContent) {
          if (b < 0x80 && !MAYBE_NA[b]) {
            lineHasContent = true;
            cell.length = 0;
          } else cell.push(b);
        }
        continue;
      }
      if (b === delimiter) {
        endCell();
        continue;
      }
      if (b === LF || b === CR) {
        endCell();
        if (lineHasContent) records++;
        lineHasContent = false;
        continue;
      }
      if (atCellStart) {
        atCellStart = false;
        if (b === QUOTE) {
          quoted = true;
          continue;
        }
      }
      if (!lineHasContent) {
        if (b < 0x80 && !MAYBE_NA[b]) {
          lineHasContent = true;
          cell.length = 0;
        } else cell.push(b);
      }
    }
    this.atCellStart = atCellStart;
    this.quoted = quoted;
    this.quotePending = quotePending;
    this.lineHasContent = lineHasContent;
    this.records = records;
  }
}
