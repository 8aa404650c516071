/**
 * Opens a file link returned by the server (relative, works without the token header) as a download:
 * an anchor click keeps the user on the page and lets the browser save the file.
 */
export function openFileLink(url: string, fileName?: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.rel = 'noopener';
  a.download = fileName ?? '';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/** Saves a blob under a file name. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  openFileLink(url, fileName);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
