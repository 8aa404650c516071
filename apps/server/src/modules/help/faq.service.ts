import xssModule from 'xss';
import type { FaqRepository } from './faq.repository.js';
import { FAQ_CATEGORIES, FAQ_ITEMS, type FaqItemContent } from './faq-content.js';

// xss is CommonJS: its named exports are properties of the default export at run time.
const { FilterXSS, friendlyAttrValue } = xssModule as unknown as typeof import('xss');

/**
 * FAQ help centre (spec 001 §2.8, §3.13, §7): keyword categories with children, items with an HTML answer and image
 * attachments, and full-text search over title and answer (PostgreSQL tsvector/tsquery; PGlite and PostgreSQL).
 */

export interface FaqItemOut {
  id: number;
  key: string;
  title: string;
  /** Sanitised HTML. */
  content: string;
  /** Image URLs (same-origin paths or https). */
  attachments: string[];
  /** Keyword names the item is filed under. */
  keywords: string[];
}
export interface FaqSearchHit extends FaqItemOut {
  rank: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Sanitiser: a strict allow-list. Anything not listed (script, style, iframe, object, form, svg, event handlers,
// style attributes, javascript:/data:/vbscript: URLs) is removed; the bodies of script-like tags are dropped.

const TAGS: Record<string, string[]> = {
  p: [],
  br: [],
  hr: [],
  strong: [],
  b: [],
  em: [],
  i: [],
  u: [],
  sub: [],
  sup: [],
  small: [],
  code: [],
  pre: [],
  blockquote: [],
  h3: [],
  h4: [],
  h5: [],
  ul: [],
  ol: ['start'],
  li: [],
  dl: [],
  dt: [],
  dd: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['colspan', 'rowspan', 'scope'],
  td: ['colspan', 'rowspan'],
  caption: [],
  a: ['href', 'title'],
  img: ['src', 'alt', 'title', 'width', 'height'],
  span: [],
  div: [],
};
// Void elements (embed, input) are simply dropped: they have no body.
const DROP_WITH_BODY = ['script', 'style', 'iframe', 'object', 'noscript', 'template', 'textarea', 'select', 'svg', 'math', 'head', 'title'];

/** A URL an answer may link to: same-origin path, fragment, https/http or mailto. Never javascript:, data: etc. */
export function safeUrl(raw: string, kind: 'href' | 'src'): string | null {
  // Browsers ignore control characters and whitespace inside schemes ("java\tscript:"), so strip them first.
  // eslint-disable-next-line no-control-regex
  const v = raw.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '').trim();
  if (!v) return null;
  if (/^\/(?!\/)/.test(v)) return v; // same-origin path (not protocol-relative //host)
  if (kind === 'href' && v.startsWith('#')) return v;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return null;
  }
  if (u.protocol === 'https:' || u.protocol === 'http:') return u.href;
  if (kind === 'href' && u.protocol === 'mailto:') return u.href;
  return null;
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const filter = new FilterXSS({
  whiteList: TAGS,
  stripIgnoreTag: true,
  stripIgnoreTagBody: DROP_WITH_BODY,
  allowCommentTag: false,
  css: false,
  onTagAttr(tag, name, value) {
    const allowed = TAGS[tag];
    if (!allowed?.includes(name)) return '';
    if (name === 'href' || name === 'src') {
      const url = safeUrl(friendlyAttrValue(value), name);
      if (!url) return '';
      const out = `${name}="${escapeAttr(url)}"`;
      // External links open in a new tab without handing the page over (rel) or leaking the referrer.
      return tag === 'a' && /^https?:/i.test(url) ? `${out} target="_blank" rel="noopener noreferrer"` : out;
    }
    if (name === 'width' || name === 'height' || name === 'colspan' || name === 'rowspan' || name === 'start') {
      return /^\d{1,4}$/.test(value.trim()) ? `${name}="${value.trim()}"` : '';
    }
    return `${name}="${escapeAttr(friendlyAttrValue(value))}"`;
  },
  onIgnoreTagAttr: () => '',
});

/** Sanitises answer HTML with the allow-list above. Idempotent. */
export function sanitizeFaqHtml(html: string): string {
  // An unclosed dropped tag (e.g. "<script>" without "</script>") leaves the library's "[removed]" marker: drop it.
  return filter.process(html).replace(/\[\/?removed\]/g, '');
}

/** Plain text of (sanitised) HTML, for the search index. */
export function htmlToText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Image attachments kept only when their URL is safe. */
export function safeAttachments(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((a) => (typeof a === 'string' ? [safeUrl(a, 'src')].filter((u): u is string => !!u) : []));
}

// ---------------------------------------------------------------------------------------------------------------
// Search query: every word becomes a prefix lexeme ('word':*), so "typh" finds typhoon and "floods" finds flood.

/** Words of a search (letters and digits; at most 12). */
export function searchWords(search: string): string[] {
  return (
    search
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).slice(0, 12);
}

/** A to_tsquery text joining the words' prefixes with `op`; every word is quoted, so no operator can be injected. */
export function tsQueryOf(words: string[], op: '&' | '|'): string {
  return words.map((w) => `'${w.replace(/'/g, "''")}':*`).join(` ${op} `);
}

export class FaqService {
  constructor(private readonly repo: FaqRepository) {}

  /** Keyword categories in order, each with its children's names (spec 001 §3.13). */
  async keywords(): Promise<{ name: string; children: string[] }[]> {
    const rows = await this.repo.keywordsInOrder();
    return rows.filter((r) => r.parent_id === null).map((top) => ({ name: top.name, children: rows.filter((r) => r.parent_id === top.id).map((r) => r.name) }));
  }

  /**
   * Items filed under the given keywords (a category includes its children's items), in content order.
   * Unknown names are ignored; `null` when none of the names is a keyword.
   */
  async itemsForKeywords(names: string[]): Promise<FaqItemOut[] | null> {
    const wanted = [...new Set(names.map((n) => n.trim().toLowerCase()))];
    const kws = await this.repo.keywordIdsByLowerName(wanted);
    if (!kws.length) return null;
    const ids = kws.map((k) => k.id);
    const children = await this.repo.childKeywordIds(ids);
    const all = [...new Set([...ids, ...children.map((c) => c.id)])];
    const rows = await this.repo.itemsWithKeywords(all);
    return this.present(rows);
  }

  /**
   * Ranked full-text search. All words must match (as prefixes); if nothing matches all of them, items matching any
   * word are returned, still ranked (ts_rank_cd, title weighted above answer text).
   */
  async search(search: string, limit = 30): Promise<FaqSearchHit[]> {
    const words = searchWords(search);
    if (!words.length) return [];
    for (const op of ['&', '|'] as const) {
      if (op === '|' && words.length < 2) break;
      const q = tsQueryOf(words, op);
      const rows = await this.repo.searchItems(q, limit);
      if (rows.length) {
        const items = await this.present(rows);
        return items.map((it, n) => ({ ...it, rank: Math.round(Number(rows[n]!.rank) * 1e4) / 1e4 }));
      }
    }
    return [];
  }

  private async present(rows: { id: number; key: string; title: string; content: string; attachments: unknown }[]): Promise<FaqItemOut[]> {
    if (!rows.length) return [];
    const links = await this.repo.itemKeywordNames(rows.map((r) => r.id));
    return rows.map((r) => ({
      id: r.id,
      key: r.key,
      title: r.title,
      // Stored answers are sanitised on write; sanitising again on read keeps rows written any other way safe.
      content: sanitizeFaqHtml(r.content),
      attachments: safeAttachments(typeof r.attachments === 'string' ? JSON.parse(r.attachments) : r.attachments),
      keywords: links.filter((l) => l.item_id === r.id).map((l) => l.name),
    }));
  }

  /** Inserts or updates one item by its stable key, with its keywords (which must exist). Sanitises the HTML. */
  async upsertItem(item: FaqItemContent, position: number, source = 'builtin', repo: FaqRepository = this.repo): Promise<number> {
    const content = sanitizeFaqHtml(item.content);
    const id = await repo.upsertItem({
      key: item.key,
      title: item.title.trim(),
      content,
      content_text: htmlToText(content),
      attachments: JSON.stringify(safeAttachments(item.attachments ?? [])),
      position,
      source,
      updated_at: new Date(),
    });
    const kws = await repo.keywordsByName(item.keywords);
    const missing = item.keywords.filter((k) => !kws.some((r) => r.name === k));
    if (missing.length) throw new Error(`FAQ item '${item.key}': unknown keywords ${missing.join(', ')}`);
    await repo.setItemKeywords(
      id,
      kws.map((k) => k.id),
    );
    return id;
  }

  /**
   * Writes the built-in FAQ content (content/faq.ts): keywords and items inserted or updated by their stable
   * names and keys, built-in items no longer in the content removed. Idempotent; run at every start.
   */
  async seed(): Promise<{ keywords: number; items: number; changed: boolean }> {
    const counts = { keywords: FAQ_CATEGORIES.reduce((n, c) => n + 1 + c.children.length, 0), items: FAQ_ITEMS.length };
    if (await this.isCurrent()) return { ...counts, changed: false };
    await this.repo.transaction(async (tx) => {
      let pos = 0;
      for (const cat of FAQ_CATEGORIES) {
        const parentId = await tx.upsertKeyword(cat.name, null, pos++);
        for (const child of cat.children) await tx.upsertChildKeyword(child, parentId, pos++);
      }
      const names = FAQ_CATEGORIES.flatMap((c) => [c.name, ...c.children]);
      await tx.deleteKeywordsNotIn(names);
      for (const [i, item] of FAQ_ITEMS.entries()) await this.upsertItem(item, i, 'builtin', tx);
      await tx.deleteItemsOfSourceNotIn(
        'builtin',
        FAQ_ITEMS.map((i) => i.key),
      );
    });
    return { ...counts, changed: true };
  }

  /** True when the database already holds exactly the built-in content (so a start-up writes nothing). */
  private async isCurrent(): Promise<boolean> {
    const [kws, items, links] = await this.repo.stored('builtin');
    const byId = new Map(kws.map((k) => [k.id, k.name]));
    const haveKw = kws.map((k) => `${k.position}|${k.name}|${k.parent_id === null ? '' : byId.get(k.parent_id)}`);
    let pos = 0;
    const wantKw = FAQ_CATEGORIES.flatMap((c) => [`${pos++}|${c.name}|`, ...c.children.map((ch) => `${pos++}|${ch}|${c.name}`)]);
    if (haveKw.join('\n') !== wantKw.join('\n')) return false;
    if (items.length !== FAQ_ITEMS.length) return false;
    return FAQ_ITEMS.every((want, i) => {
      const have = items[i]!;
      const att = typeof have.attachments === 'string' ? JSON.parse(have.attachments) : have.attachments;
      const names = links
        .filter((l) => l.item_id === have.id)
        .map((l) => byId.get(l.keyword_id))
        .sort();
      return (
        have.key === want.key &&
        have.position === i &&
        have.title === want.title.trim() &&
        have.content === sanitizeFaqHtml(want.content) &&
        JSON.stringify(att) === JSON.stringify(safeAttachments(want.attachments ?? [])) &&
        JSON.stringify(names) === JSON.stringify([...new Set(want.keywords)].sort())
      );
    });
  }
}
