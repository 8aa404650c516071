import PDFDocument from 'pdfkit';
import SVGtoPDF from 'svg-to-pdfkit';
import { chartSvg } from './chart-svg.js';
import { isWinAnsi, useFont } from './pdf-fonts.js';
import { COLORS, SLIDE_H, SLIDE_W, textOn, type Block, type Deck, type TableBlock } from './deck.js';

const PT = 72;
const FONT = 'Helvetica';

function drawTable(doc: PDFKit.PDFDocument, b: TableBlock) {
  const size = b.size ?? 10;
  const widths = (b.colW ?? b.header.map(() => b.w / b.header.length)).map((w) => w * PT);
  const rowH = Math.max(size * 1.9, 14);
  const x0 = b.x * PT;
  let y = b.y * PT;
  const maxY = (b.y + b.h) * PT;
  const cell = (text: string, x: number, w: number, fill: string | null, bold: boolean, colour: string) => {
    if (fill) doc.rect(x, y, w, rowH).fill(fill);
    doc
      .fontSize(size)
      .fillColor(colour)
      .text(useFont(doc, text, bold), x + 4, y + (rowH - size) / 2 - 1, { width: w - 8, height: rowH, lineBreak: false, ellipsis: true });
  };
  let x = x0;
  b.header.forEach((h, i) => {
    cell(h, x, widths[i]!, COLORS.navy, true, '#ffffff');
    x += widths[i]!;
  });
  y += rowH;
  for (let r = 0; r < b.rows.length; r++) {
    // Long text cells (recommendations) wrap: measure the tallest cell of the row first.
    doc.fontSize(size);
    const h = Math.max(rowH, ...b.rows[r]!.map((t, i) => doc.heightOfString(useFont(doc, t), { width: widths[i]! - 8 }) + 8));
    if (y + h > maxY) break;
    x = x0;
    if (r % 2 === 1)
      doc
        .rect(
          x0,
          y,
          widths.reduce((a, w) => a + w, 0),
          h,
        )
        .fill(COLORS.surface);
    b.rows[r]!.forEach((t, i) => {
      const fill = b.fills?.[r]?.[i] ?? null;
      if (fill) doc.rect(x, y, widths[i]!, h).fill(fill);
      doc
        .fontSize(size)
        .fillColor(fill ? textOn(fill) : COLORS.ink)
        .text(useFont(doc, t), x + 4, y + 4, { width: widths[i]! - 8, height: h - 4 });
      x += widths[i]!;
    });
    doc
      .moveTo(x0, y + h)
      .lineTo(x, y + h)
      .lineWidth(0.5)
      .strokeColor(COLORS.border)
      .stroke();
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
      doc
        .fontSize(b.size)
        .fillColor(b.color ?? COLORS.ink)
        .text(useFont(doc, b.text, !!b.bold), x, y, { width: w, height: h, align: b.align ?? 'left', ellipsis: true });
      return;
    case 'bullets': {
      doc.fontSize(b.size).fillColor(COLORS.ink);
      let cy = y;
      for (const raw of b.items) {
        const item = useFont(doc, raw);
        const th = doc.heightOfString(item, { width: w - 14 });
        if (cy + th > y + h) break;
        doc.circle(x + 4, cy + b.size / 2, 2).fill(COLORS.teal);
        doc.fillColor(COLORS.ink).text(item, x + 14, cy, { width: w - 14 });
        cy += th + b.size * 0.5;
      }
      return;
    }
    case 'kpi':
      doc.roundedRect(x, y, w, h, 6).fillAndStroke('#ffffff', COLORS.border);
      doc.rect(x, y + 6, 4, h - 12).fill(b.accent);
      doc
        .fontSize(11)
        .fillColor(COLORS.muted)
        .text(useFont(doc, b.label), x + 14, y + 10, { width: w - 24, lineBreak: false, ellipsis: true });
      doc
        .fontSize(22)
        .fillColor(COLORS.ink)
        .text(useFont(doc, b.value, true), x + 14, y + 28, { width: w - 24, lineBreak: false, ellipsis: true });
      if (b.note)
        doc
          .fontSize(10)
          .fillColor(COLORS.muted)
          .text(useFont(doc, b.note), x + 14, y + h - 22, { width: w - 24, lineBreak: false, ellipsis: true });
      return;
    case 'chart': {
      // svg-to-pdfkit asks for a font by family, not by text: a chart with any non-Latin label prints all its text in
      // the fallback font (which has Latin glyphs too).
      const texts = [b.title, b.unit, ...b.categories, ...b.series.map((s) => s.name)].join(' ');
      const latin = isWinAnsi(texts);
      if (!latin) useFont(doc, texts);
      SVGtoPDF(doc, chartSvg(b), x, y, {
        width: w,
        height: h,
        preserveAspectRatio: 'xMidYMid meet',
        fontCallback: (_f, bold) => (latin ? (bold ? 'Helvetica-Bold' : FONT) : bold ? 'CJK-Bold' : 'CJK'),
      });
      return;
    }
    case 'table':
      drawTable(doc, b);
      return;
  }
}

/** Renders the deck as a landscape 16:9 PDF (one slide a page, with an outline entry per slide). */
export function renderDeckPdf(deck: Deck): Promise<Buffer> {
  const doc = new PDFDocument({
    size: [SLIDE_W * PT, SLIDE_H * PT],
    margin: 0,
    autoFirstPage: false,
    info: { Title: deck.title, Subject: deck.subject, Creator: 'Climate Risk Platform' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  deck.slides.forEach((slide, i) => {
    doc.addPage();
    doc.outline.addItem(slide.title);
    if (slide.cover) doc.rect(0, 0, SLIDE_W * PT, SLIDE_H * PT).fill(COLORS.navy);
    for (const b of slide.blocks) drawBlock(doc, b);
    if (!slide.cover) {
      doc.fontSize(9).fillColor(COLORS.muted);
      doc.text(useFont(doc, deck.footer), 0.5 * PT, (SLIDE_H - 0.4) * PT, { width: (SLIDE_W - 2) * PT, lineBreak: false, ellipsis: true });
      doc.font(FONT).text(`${i + 1} / ${deck.slides.length}`, (SLIDE_W - 1.5) * PT, (SLIDE_H - 0.4) * PT, { width: PT, align: 'right', lineBreak: false });
    }
  });
  doc.end();
  return done;
}
