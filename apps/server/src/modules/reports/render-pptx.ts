import PptxGenJS from 'pptxgenjs';
import { COLORS, SLIDE_H, textOn, type Block, type ChartBlock, type Deck, type TableBlock } from './deck.js';

const hex = (c: string) => c.replace('#', '').toUpperCase();
const FONT = 'Calibri';

function addChart(pptx: PptxGenJS, slide: PptxGenJS.Slide, b: ChartBlock) {
  // Native PowerPoint charts (editable in PowerPoint), the same series as the PDF's rendered charts.
  const data = b.series.map((s) => ({ name: s.name, labels: b.categories, values: s.values.map((v) => v ?? 0) }));
  const type = b.type === 'line' ? pptx.ChartType.line : pptx.ChartType.bar;
  slide.addChart(type, data, {
    x: b.x,
    y: b.y,
    w: b.w,
    h: b.h,
    barDir: b.type === 'hbar' ? 'bar' : 'col',
    barGrouping: 'clustered',
    chartColors: b.series.map((s) => hex(s.color)),
    showTitle: true,
    title: b.title,
    titleFontSize: 13,
    titleColor: hex(COLORS.navy),
    titleFontFace: FONT,
    showLegend: true,
    legendPos: 't',
    legendFontSize: 10,
    legendFontFace: FONT,
    catAxisLabelFontSize: 9,
    valAxisLabelFontSize: 9,
    catAxisLabelFontFace: FONT,
    valAxisLabelFontFace: FONT,
    showValAxisTitle: true,
    valAxisTitle: b.unit,
    valAxisTitleFontSize: 10,
    ...(b.max !== undefined ? { valAxisMaxVal: b.max, valAxisMinVal: 0 } : {}),
    lineSize: 2,
    lineDataSymbolSize: 6,
    showValue: b.type !== 'line' && b.categories.length * b.series.length <= 16,
    dataLabelFontSize: 8,
  });
}

function addTable(slide: PptxGenJS.Slide, b: TableBlock) {
  const size = b.size ?? 10;
  const header = b.header.map((h) => ({ text: h, options: { bold: true, color: 'FFFFFF', fill: { color: hex(COLORS.navy) } } }));
  const rows = b.rows.map((r, i) =>
    r.map((t, j) => {
      const fill = b.fills?.[i]?.[j] ?? (i % 2 === 1 ? COLORS.surface : null);
      return { text: t, options: { ...(fill ? { fill: { color: hex(fill) }, color: hex(textOn(fill)) } : { color: hex(COLORS.ink) }) } };
    }),
  );
  slide.addTable([header, ...rows], {
    x: b.x,
    y: b.y,
    w: b.w,
    colW: b.colW,
    fontSize: size,
    fontFace: FONT,
    border: { type: 'solid', pt: 0.5, color: hex(COLORS.border) },
    rowH: Math.max(0.22, (size * 1.9) / 72),
    autoPage: false,
    margin: 0.04,
  });
}

function addBlock(pptx: PptxGenJS, slide: PptxGenJS.Slide, b: Block) {
  switch (b.kind) {
    case 'rect':
      slide.addShape(pptx.ShapeType.rect, { x: b.x, y: b.y, w: b.w, h: b.h, fill: { color: hex(b.fill) }, line: { color: hex(b.fill) } });
      return;
    case 'text':
      slide.addText(b.text, {
        x: b.x,
        y: b.y,
        w: b.w,
        h: b.h,
        fontSize: b.size,
        bold: !!b.bold,
        color: hex(b.color ?? COLORS.ink),
        align: b.align ?? 'left',
        valign: 'top',
        fontFace: FONT,
        margin: 0,
        fit: 'shrink',
      });
      return;
    case 'bullets':
      slide.addText(
        b.items.map((t) => ({ text: t, options: { bullet: { indent: 14 }, breakLine: true } })),
        {
          x: b.x,
          y: b.y,
          w: b.w,
          h: b.h,
          fontSize: b.size,
          color: hex(COLORS.ink),
          valign: 'top',
          fontFace: FONT,
          paraSpaceAfter: 6,
          margin: 0,
          fit: 'shrink',
        },
      );
      return;
    case 'kpi':
      slide.addShape(pptx.ShapeType.roundRect, {
        x: b.x,
        y: b.y,
        w: b.w,
        h: b.h,
        fill: { color: 'FFFFFF' },
        line: { color: hex(COLORS.border), width: 0.75 },
        rectRadius: 0.08,
      });
      slide.addShape(pptx.ShapeType.rect, { x: b.x, y: b.y + 0.08, w: 0.06, h: b.h - 0.16, fill: { color: hex(b.accent) }, line: { color: hex(b.accent) } });
      slide.addText(b.label, { x: b.x + 0.2, y: b.y + 0.1, w: b.w - 0.3, h: 0.3, fontSize: 11, color: hex(COLORS.muted), fontFace: FONT, margin: 0 });
      slide.addText(b.value, {
        x: b.x + 0.2,
        y: b.y + 0.4,
        w: b.w - 0.3,
        h: 0.5,
        fontSize: 22,
        bold: true,
        color: hex(COLORS.ink),
        fontFace: FONT,
        margin: 0,
        fit: 'shrink',
      });
      if (b.note)
        slide.addText(b.note, { x: b.x + 0.2, y: b.y + b.h - 0.35, w: b.w - 0.3, h: 0.28, fontSize: 10, color: hex(COLORS.muted), fontFace: FONT, margin: 0 });
      return;
    case 'chart':
      addChart(pptx, slide, b);
      return;
    case 'table':
      addTable(slide, b);
      return;
  }
}

/** Renders the deck as a .pptx (PowerPoint wide layout), slide for slide the same as the PDF. */
export async function renderDeckPptx(deck: Deck): Promise<Buffer> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_WIDE';
  pptx.title = deck.title;
  pptx.subject = deck.subject;
  pptx.company = 'Climate Risk Platform';
  deck.slides.forEach((s, i) => {
    const slide = pptx.addSlide();
    if (s.cover) slide.background = { color: hex(COLORS.navy) };
    for (const b of s.blocks) addBlock(pptx, slide, b);
    if (!s.cover) {
      slide.addText(deck.footer, { x: 0.5, y: SLIDE_H - 0.4, w: 10.5, h: 0.25, fontSize: 9, color: hex(COLORS.muted), fontFace: FONT, margin: 0 });
      slide.addText(`${i + 1} / ${deck.slides.length}`, {
        x: 11.8,
        y: SLIDE_H - 0.4,
        w: 1.0,
        h: 0.25,
        fontSize: 9,
        color: hex(COLORS.muted),
        align: 'right',
        fontFace: FONT,
        margin: 0,
      });
    }
  });
  return (await pptx.write({ outputType: 'nodebuffer' })) as Buffer;
}
