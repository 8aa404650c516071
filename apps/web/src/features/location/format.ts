/** Names display truncated to 20 characters, coordinates to 3 decimals (spec 000 §5). */
export function truncateName(name: string, max = 20): string {
  if (name.length <= max) return name;
  // A numbered name ("Central, Central and Western, Hong Kong 2") keeps its number in view: the numbers are what
  // tell markers in one district apart.
  const num = / \d+$/.exec(name)?.[0] ?? '';
  return `${name.slice(0, max - num.length)}...${num}`;
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
