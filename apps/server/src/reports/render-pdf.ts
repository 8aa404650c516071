import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { chartSvg } from './chart-svg.js';
import { COLORS, SLIDE_H, SLIDE_W, textOn, type Block, type Deck, type TableBlock } from './deck.js';

const PT = 72;
const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';

/**
 * The standard PDF fonts encode WinAnsi only: characters outside it (CJK, most non-Latin scripts) are replaced by
 * "?" rather than printed as garbage. docs/reports.md states this limit.
 */
export function winAnsi(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[^\x00-\xff€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ]/g, '?');
}

function drawTable(doc: PDFKit.PDFDocument, b: TableBlock) {
  const size = b.size ?? 10;
  const widths = (b.colW ?? b.header.map(() => b.w / b.header.length)).map((w) => w * PT);
  const rowH = Math.max(size * 1.9, 14);
  const x0 = b.x * PT;
  let y = b.y * PT;
  const maxY = (b.y + b.h) * PT;
  const cell = (text: string, x: number, w: number, fill: string | null, bold: boolean, colour: string) => {
    if (fill) doc.rect(x, y, w, rowH).fill(fill);
    doc.font(bold ? BOLD : FONT).fontSize(size).fillColor(colour).text(winAnsi(text), x + 4, y + (rowH - size) / 2 - 1, { width: w - 8, height: rowH, lineBreak: false, ellipsis: true });
  };
  let x = x0;
  b.header.forEach((h, i) => { cell(h, x, widths[i]!, COLORS.navy, true, '#ffffff'); x += widths[i]!; });
  y += rowH;
  for (let r = 0; r < b.rows.length; r++) {
    // Long text cells (recommendations) wrap: measure the tallest cell of the row first.
    doc.font(FONT).fontSize(size);
    const h = Math.max(rowH, ...b.rows[r]!.map((t, i) => doc.heightOfString(winAnsi(t), { width: widths[i]! - 8 }) + 8));
    if (y + h > maxY) break;
    x = x0;
    if (r % 2 === 1) doc.rect(x0, y, widths.reduce((a, w) => a + w, 0), h).fill(COLORS.surface);
    b.rows[r]!.forEach((t, i) => {
      const fill = b.fills?.[r]?.[i] ?? null;
      if (fill) doc.rect(x, y, widths[i]!, h).fill(fill);
      doc.font(FONT).fontSize(size).fillColor(fill ? textOn(fill) : COLORS.ink).text(winAnsi(t), x + 4, y + 4, { width: widths[i]! - 8, height: h - 4 });
      x += widths[i]!;
    });
    doc.moveTo(x0, y + h).lineTo(x, y + h).lineWidth(0.5).strokeColor(COLORS.border).stroke();
    y += h;
  }
}

function drawBlock(doc: PDFKit.PDFDocument, b: Block) {
  const [x, y, w, h] = [b.x * PT, b.y * PT, b.w * PT, b.h * PT];
  switch (b.kind) {
    case 'rect':
      doc.rect(x, y, w, h).fill(b.fill);
      return;
    case 'text':
      doc.font(b.bold ? BOLD : FONT).fontSize(b.size).fillColor(b.color ?? COLORS.ink).text(winAnsi(b.text), x, y, { width: w, height: h, align: b.align ?? 'left', ellipsis: true });
      return;
    case 'bullets': {
      doc.font(FONT).fontSize(b.size).fillColor(COLORS.ink);
      let cy = y;
      for (const item of b.items) {
        const th = doc.heightOfString(winAnsi(item), { width: w - 14 });
        if (cy + th > y + h) break;
        doc.circle(x + 4, cy + b.size / 2, 2).fill(COLORS.teal);
        doc.fillColor(COLORS.ink).text(winAnsi(item), x + 14, cy, { width: w - 14 });
        cy += th + b.size * 0.5;
      }
      return;
    }
    case 'kpi':
      doc.roundedRect(x, y, w, h, 6).fillAndStroke('#ffffff', COLORS.border);
      doc.rect(x, y + 6, 4, h - 12).fill(b.accent);
      doc.font(FONT).fontSize(11).fillColor(COLORS.muted).text(winAnsi(b.label), x + 14, y + 10, { width: w - 24, lineBreak: false, ellipsis: true });
      doc.font(BOLD).fontSize(22).fillColor(COLORS.ink).text(winAnsi(b.value), x + 14, y + 28, { width: w - 24, lineBreak: false, ellipsis: true });
      if (b.note) doc.font(FONT).fontSize(10).fillColor(COLORS.muted).text(winAnsi(b.note), x + 14, y + h - 22, { width: w - 24, lineBreak: false, ellipsis: true });
      return;
    case 'chart':
      SVGtoPDF(doc, chartSvg(b), x, y, { width: w, height: h, preserveAspectRatio: 'xMidYMid meet', fontCallback: () => FONT });
      return;
    case 'table':
      drawTable(doc, b);
      return;
  }
}

/** Renders the deck as a landscape 16:9 PDF (one slide a page, with an outline entry per slide). */
export function renderDeckPdf(deck: Deck): Promise<Buffer> {
  const doc = new PDFDocument({ size: [SLIDE_W * PT, SLIDE_H * PT], margin: 0, autoFirstPage: false, info: { Title: winAnsi(deck.title), Subject: winAnsi(deck.subject), Creator: 'Climate Risk Platform' } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  deck.slides.forEach((slide, i) => {
    doc.addPage();
    doc.outline.addItem(winAnsi(slide.title));
    if (slide.cover) doc.rect(0, 0, SLIDE_W * PT, SLIDE_H * PT).fill(COLORS.navy);
    for (const b of slide.blocks) drawBlock(doc, b);
    if (!slide.cover) {
      doc.font(FONT).fontSize(9).fillColor(COLORS.muted);
      doc.text(winAnsi(deck.footer), 0.5 * PT, (SLIDE_H - 0.4) * PT, { width: (SLIDE_W - 2) * PT, lineBreak: false, ellipsis: true });
      doc.text(`${i + 1} / ${deck.slides.length}`, (SLIDE_W - 1.5) * PT, (SLIDE_H - 0.4) * PT, { width: PT, align: 'right', lineBreak: false });
    }
  });
  doc.end();
  return done;
}
