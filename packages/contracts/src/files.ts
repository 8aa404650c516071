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

/** Makes a spreadsheet cell safe against formula injection (OWASP CSV injection): text starting with = + - @ tab or CR gets a leading apostrophe. */
export function safeCell<T>(v: T): T | string {
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(v)) return `'${v}`;
  return v;
}
