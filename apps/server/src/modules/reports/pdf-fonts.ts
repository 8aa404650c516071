import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as fontkit from 'fontkit';

/**
 * Fonts of the server's PDFs (docs/decisions.md "Maps, names and fonts (issue 23)").
 *
 * Latin text keeps the standard PDF font Helvetica (not embedded, WinAnsi encoding). A text that Helvetica cannot
 * encode (Chinese, Japanese, Greek, Cyrillic ...) falls back to Noto Sans CJK TC (Noto Sans Hant, OFL-1.1, from the
 * npm package @embedpdf/fonts-tc), which pdfkit embeds as a subset: only the glyphs used (a few kB per report, not
 * the 5.6 MB file). The fallback is chosen per text element (a cell, a line, a label), not per character: pdfkit's
 * chained `continued` runs ignore `lineBreak: false` and the ellipsis (measured), and Noto Sans CJK carries Latin
 * glyphs of its own, so a mixed name like "Tower 中環廣場" prints in one design. Characters neither font has (Hangul
 * and Thai are outside the TC subset) print as "?", and docs/decisions.md says so.
 */
export type PdfFont = 'Helvetica' | 'Helvetica-Bold' | 'CJK' | 'CJK-Bold';

const FONT_DIR = new URL('../fonts/', import.meta.resolve('@embedpdf/fonts-tc'));
const CJK_FILES = { CJK: 'NotoSansHant-Regular.otf', 'CJK-Bold': 'NotoSansHant-Bold.otf' } as const;

/** The font files read once per process (pdfkit parses its own copy per document, only when the font is used). */
const buffers = new Map<keyof typeof CJK_FILES, Buffer>();
function cjkBuffer(name: keyof typeof CJK_FILES): Buffer {
  let b = buffers.get(name);
  if (!b) {
    b = readFileSync(fileURLToPath(new URL(CJK_FILES[name], FONT_DIR)));
    buffers.set(name, b);
  }
  return b;
}

let coverage: fontkit.Font | null = null;
/** Whether the CJK font has a glyph for a code point (the regular face; the bold has the same character set). */
function cjkHas(codePoint: number): boolean {
  coverage ??= fontkit.create(cjkBuffer('CJK')) as fontkit.Font;
  return coverage.hasGlyphForCodePoint(codePoint);
}

// eslint-disable-next-line no-control-regex
const NOT_WIN_ANSI = /[^\x00-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/;

/** True when Helvetica (WinAnsi) can print every character of the text. */
export const isWinAnsi = (s: string): boolean => !NOT_WIN_ANSI.test(s);

/**
 * The font a text prints in, and the text as printed: Helvetica when it can encode the whole text; otherwise the
 * embedded CJK font, with any character that font lacks too replaced by "?" (never an empty box or garbage).
 */
export function pickFont(text: string, bold: boolean): { font: PdfFont; text: string } {
  if (isWinAnsi(text)) return { font: bold ? 'Helvetica-Bold' : 'Helvetica', text };
  let out = '';
  for (const ch of text) out += /\s/.test(ch) || cjkHas(ch.codePointAt(0)!) ? ch : '?';
  return { font: bold ? 'CJK-Bold' : 'CJK', text: out };
}

const registered = new WeakSet<PDFKit.PDFDocument>();

/**
 * Sets the font for a text on the document and answers the text to print with it. The CJK faces are registered on a
 * document the first time one of its texts needs them, so a Latin-only PDF embeds nothing.
 */
export function useFont(doc: PDFKit.PDFDocument, text: string, bold = false): string {
  const f = pickFont(text, bold);
  if ((f.font === 'CJK' || f.font === 'CJK-Bold') && !registered.has(doc)) {
    for (const name of Object.keys(CJK_FILES) as (keyof typeof CJK_FILES)[]) doc.registerFont(name, cjkBuffer(name));
    registered.add(doc);
  }
  doc.font(f.font);
  return f.text;
}
