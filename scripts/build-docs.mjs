#!/usr/bin/env node
/**
 * Builds the two documents the web app shows in its PDF viewers (spec 001 §2.10) from our own markdown:
 *
 *   apps/web/public/documents/climate-methodology.pdf   docs/methodology.md + every chapter it links to
 *                                                       (hazards, engine, validation, geocoding, dashboard)
 *   apps/web/public/documents/adaptation-measures.pdf   docs/adaptation.md
 *
 * Markdown → HTML with `marked`, HTML → PDF with headless Chromium (Debian `chromium`, or CHROMIUM=/path).
 * Reproducible: no dates from the clock; the PDF's creation and modification dates are pinned to the newest source
 * file's git commit date (or 2026-01-01), so rebuilding unchanged sources gives the same text and dates.
 *
 *   npm run docs:build            # writes both PDFs (commit them)
 *   node scripts/build-docs.mjs --check   # exits 1 if a PDF is missing or older than its sources
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Marked } from 'marked';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = join(ROOT, 'apps/web/public/documents');
const METHODOLOGY_VERSION =
  /METHODOLOGY_VERSION = '([^']+)'/.exec(readFileSync(join(ROOT, 'packages/contracts/src/projects.ts'), 'utf8'))?.[1] ?? 'unversioned';

/** Markdown files linked from an index file, in order, as repository paths. */
function linkedChapters(index) {
  const md = readFileSync(join(ROOT, index), 'utf8');
  const out = [];
  for (const m of md.matchAll(/\]\(([^)#\s]+\.md)\)/g)) {
    const p = join(dirname(index), m[1]).replace(/\\/g, '/');
    if (!out.includes(p) && existsSync(join(ROOT, p))) out.push(p);
  }
  return out;
}

export const DOCUMENTS = [
  {
    file: 'climate-methodology.pdf',
    title: 'Climate Methodology',
    subtitle: 'Hazard models, data sources, vulnerability functions, financial metrics, scenarios and validation',
    // The index and every chapter it links to, in its order (so a new chapter joins the PDF by being linked).
    sources: ['docs/methodology.md', ...linkedChapters('docs/methodology.md')],
  },
  {
    file: 'adaptation-measures.pdf',
    title: 'Adaptation Methodology',
    subtitle: 'Adaptation measures per hazard and their effect on the residual Climate Value at Risk',
    sources: ['docs/adaptation.md'],
  },
];

const slug = (s) =>
  s
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Markdown of one source → HTML; headings get ids (for the contents), links to other .md files become text. */
function renderMarkdown(md, prefix, toc) {
  const marked = new Marked({ gfm: true });
  marked.use({
    renderer: {
      heading({ tokens, depth }) {
        const text = this.parser.parseInline(tokens);
        const id = `${prefix}-${slug(text)}`;
        if (depth <= 2) toc.push({ depth, id, text: text.replace(/<[^>]+>/g, '') });
        return `<h${depth} id="${id}">${text}</h${depth}>\n`;
      },
      link({ href, tokens }) {
        const text = this.parser.parseInline(tokens);
        if (/^https?:\/\//.test(href)) return `<a href="${esc(href)}">${text}</a>`;
        return `<span class="ref">${text}</span>`; // repository-relative links mean nothing in a PDF
      },
    },
  });
  return marked.parse(md);
}

const CSS = `
@page { size: A4; margin: 18mm 16mm 20mm 16mm; }
* { box-sizing: border-box; }
body { font-family: 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; font-size: 9.5pt; line-height: 1.45; color: #1f2933; }
.cover { height: 250mm; display: flex; flex-direction: column; justify-content: center; page-break-after: always; }
.cover .brand { font-size: 11pt; letter-spacing: .12em; text-transform: uppercase; color: #0b6e4f; font-weight: bold; }
.cover h1 { font-size: 30pt; margin: 10mm 0 4mm; border: 0; color: #102a43; }
.cover .subtitle { font-size: 13pt; color: #486581; max-width: 150mm; }
.cover .meta { margin-top: 18mm; font-size: 9.5pt; color: #52606d; }
.cover .bar { height: 4mm; width: 60mm; background: #0b6e4f; margin-top: 8mm; }
nav.toc { page-break-after: always; }
nav.toc h2 { margin-top: 0; }
nav.toc ol { list-style: none; padding-left: 0; }
nav.toc li.d1 { font-weight: bold; margin-top: 2.5mm; }
nav.toc li.d2 { padding-left: 6mm; }
nav.toc a { color: inherit; text-decoration: none; }
section.part { page-break-before: always; }
section.part:first-of-type { page-break-before: auto; }
h1 { font-size: 19pt; color: #102a43; border-bottom: 2px solid #0b6e4f; padding-bottom: 2mm; margin: 0 0 5mm; }
h2 { font-size: 14pt; color: #102a43; margin: 7mm 0 3mm; page-break-after: avoid; }
h3 { font-size: 11.5pt; color: #243b53; margin: 5mm 0 2mm; page-break-after: avoid; }
h4 { font-size: 10pt; margin: 4mm 0 1.5mm; }
p, li { orphans: 3; widows: 3; }
table { border-collapse: collapse; width: 100%; margin: 3mm 0; font-size: 8pt; page-break-inside: auto; }
tr { page-break-inside: avoid; }
th, td { border: 1px solid #bcccdc; padding: 1.2mm 1.6mm; vertical-align: top; text-align: left; }
th { background: #e6f4ef; }
code { font-family: 'DejaVu Sans Mono', 'Liberation Mono', monospace; font-size: 8pt; background: #f0f4f8; padding: 0 .6mm; border-radius: 1mm; }
pre { background: #f0f4f8; padding: 2.5mm; border-radius: 1.5mm; font-size: 7.5pt; white-space: pre-wrap; word-break: break-word; page-break-inside: avoid; }
pre code { background: none; padding: 0; }
.ref { color: #0b6e4f; }
a { color: #0b6e4f; }
blockquote { border-left: 3px solid #bcccdc; margin: 3mm 0; padding: 0 4mm; color: #486581; }
`;

function gitDate(paths) {
  try {
    const out = execFileSync('git', ['log', '-1', '--format=%cI', '--', ...paths], { cwd: ROOT, encoding: 'utf8' }).trim();
    return out ? new Date(out) : null;
  } catch {
    return null;
  }
}

function htmlOf(doc) {
  const toc = [];
  const parts = doc.sources.map((src, i) => `<section class="part">${renderMarkdown(readFileSync(join(ROOT, src), 'utf8'), `s${i}`, toc)}</section>`);
  const date = gitDate(doc.sources) ?? new Date('2026-01-01T00:00:00Z');
  const tocHtml = toc.map((t) => `<li class="d${t.depth}"><a href="#${t.id}">${esc(t.text)}</a></li>`).join('\n');
  return {
    date,
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.title)}</title><style>${CSS}</style></head><body>
<div class="cover"><div class="brand">Climate Risk Platform</div><h1>${esc(doc.title)}</h1><div class="subtitle">${esc(doc.subtitle)}</div>
<div class="bar"></div><div class="meta">Methodology version ${esc(METHODOLOGY_VERSION)} · sources updated ${date.toISOString().slice(0, 10)}<br>Generated from ${doc.sources.map(esc).join(', ')}</div></div>
<nav class="toc"><h2>Contents</h2><ol>${tocHtml}</ol></nav>
${parts.join('\n')}
</body></html>`,
  };
}

function findChromium() {
  for (const c of [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']) if (c && existsSync(c)) return c;
  throw new Error('Chromium not found: install it (apt-get install chromium) or set CHROMIUM=/path/to/chrome');
}

/** Pins /CreationDate and /ModDate to `date` without changing byte offsets (same-length replacement). */
function pinDates(pdf, date) {
  const d = `D:${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}`;
  let s = pdf.toString('latin1');
  s = s.replace(/\/(CreationDate|ModDate) \((D:[^)]*)\)/g, (_m, k, v) => `/${k} (${(d + "+00'00'").padEnd(v.length, ' ').slice(0, v.length)})`);
  return Buffer.from(s, 'latin1');
}

/** SHA-256 of a document's markdown sources, recorded beside the PDFs so a test can tell when they are stale. */
function sourcesHash(doc) {
  const h = createHash('sha256');
  for (const s of doc.sources) h.update(`${s}\n`).update(readFileSync(join(ROOT, s)));
  return h.digest('hex');
}
const HASHES = () => join(OUT_DIR, 'sources.json');

export function buildDocs() {
  mkdirSync(OUT_DIR, { recursive: true });
  const chromium = findChromium();
  const tmp = mkdtempSync(join(tmpdir(), 'crp-docs-'));
  try {
    for (const doc of DOCUMENTS) {
      const { html, date } = htmlOf(doc);
      const htmlPath = join(tmp, doc.file.replace(/\.pdf$/, '.html'));
      const pdfPath = join(tmp, doc.file);
      writeFileSync(htmlPath, html);
      execFileSync(
        chromium,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-extensions',
          `--user-data-dir=${join(tmp, 'profile')}`,
          '--no-pdf-header-footer',
          '--run-all-compositor-stages-before-draw',
          `--print-to-pdf=${pdfPath}`,
          `file://${htmlPath}`,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 },
      );
      const out = join(OUT_DIR, doc.file);
      writeFileSync(out, pinDates(readFileSync(pdfPath), date));
      console.log(`wrote ${out.slice(ROOT.length + 1)} (${Math.round(statSync(out).size / 1024)} KB) from ${doc.sources.join(', ')}`);
    }
    writeFileSync(HASHES(), JSON.stringify(Object.fromEntries(DOCUMENTS.map((d) => [d.file, { sources: d.sources, sha256: sourcesHash(d) }])), null, 2) + '\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function check() {
  let stale = 0;
  for (const doc of DOCUMENTS) {
    const out = join(OUT_DIR, doc.file);
    if (!existsSync(out)) {
      console.error(`missing ${doc.file}: run npm run docs:build`);
      stale++;
      continue;
    }
    const recorded = existsSync(HASHES()) ? JSON.parse(readFileSync(HASHES(), 'utf8'))[doc.file] : undefined;
    if (!recorded || recorded.sha256 !== sourcesHash(doc)) {
      console.error(`${doc.file} was built from other sources than ${doc.sources.join(', ')} as they are now: run npm run docs:build`);
      stale++;
    }
  }
  process.exit(stale ? 1 : 0);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) check();
  else buildDocs();
}
