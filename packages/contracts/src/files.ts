/** Rules for the files the product makes (exports, reports), shared by the server and the web app. */

/**
 * A file name safe in a URL and on any disk: letters, digits, dot, dash and underscore only, not starting with a dot
 * (so never `.`, `..` or a hidden file).
 */
export function safeFileName(filename: string): string {
  return (
    filename
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^\.+/, '')
      .slice(0, 120) || 'download'
  );
}

/** What a spreadsheet may split a text at when it opens a CSV: the locale's list separator (`,` in English, `;` in German, French, Dutch and Spanish), tab, line breaks. */
const CELL_SPLIT = /([;,\t\r\n])/;
/** A part that starts (after spaces) with one of these is read as a formula (`-12.5` too: as text it is escaped, as a number it is not text). */
const FORMULA_TRIGGER = /^(\s*)([=+\-@])/;

/**
 * Makes a spreadsheet cell safe against formula injection (OWASP "CSV Injection"; ASVS V5.3.x output encoding), for CSV
 * and XLSX alike: a text starting with `=`, `+`, `-`, `@`, tab or CR gets a leading apostrophe, and so does every part
 * of it after a `;`, `,`, tab or line break that starts with `= + - @` (`Safe;=1+1` becomes `Safe;'=1+1`), because
 * Excel in a locale whose list separator is `;` splits an unquoted CSV field there and would run the second part
 * (issue 32). Numbers (`-12.5` as a number) and other values pass unchanged, so numeric cells stay numeric; a text that
 * looks like a negative number is escaped like any text (in a `;` locale an English CSV line is one field that starts
 * with the first cell, so no text start is trusted).
 */
export function safeCell<T>(v: T): T | string {
  if (typeof v !== 'string' || !/[=+\-@\t\r]/.test(v)) return v;
  const parts = v.split(CELL_SPLIT);
  let changed = false;
  for (let i = 0; i < parts.length; i += 2) {
    if (FORMULA_TRIGGER.test(parts[i]!)) {
      parts[i] = parts[i]!.replace(FORMULA_TRIGGER, "$1'$2");
      changed = true;
    }
  }
  const out = changed ? parts.join('') : v;
  return /^[\t\r]/.test(out) ? `'${out}` : out;
}

/**
 * One CSV field (RFC 4180) of any value: empty for null and undefined, text through `safeCell`, and quoted when it holds
 * a quote, a `,` or `;` (the list separators of the locales), a tab or a line break, so no spreadsheet splits it.
 */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = String(safeCell(v));
  return /[",;\t\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
