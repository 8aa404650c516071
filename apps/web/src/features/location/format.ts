/** Names display truncated to 20 characters, coordinates to 3 decimals (spec 000 §5). */
export function truncateName(name: string, max = 20): string {
  return name.length > max ? `${name.slice(0, max)}...` : name;
}

export function formatCoord(v: number): string {
  return v.toFixed(3);
}

/** Copies text; falls back to a hidden textarea where the Clipboard API is unavailable. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    // fall through
  }
  const ta = document.createElement('textarea');
  ta.value = text;
  ta.setAttribute('readonly', '');
  ta.style.position = 'fixed';
  ta.style.opacity = '0';
  document.body.appendChild(ta);
  ta.select();
  document.execCommand('copy');
  ta.remove();
}
