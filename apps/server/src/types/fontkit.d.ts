/** The part of fontkit (pdfkit's font parser) the PDF fallback uses: glyph coverage of a font file. */
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
