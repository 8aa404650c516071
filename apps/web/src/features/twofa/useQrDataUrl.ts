import { useEffect, useState } from 'react';
import QRCode from 'qrcode';

/** Renders an otpauth:// uri as a PNG data URL for an <img>. */
export function useQrDataUrl(text: string | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let alive = true;
    setUrl(null);
    if (!text) return;
    QRCode.toDataURL(text, { width: 208, margin: 1, errorCorrectionLevel: 'M', color: { dark: '#0c2233', light: '#ffffff' } })
      .then((u) => alive && setUrl(u))
      .catch((err: unknown) => console.error('QR code rendering failed', err));
    return () => {
      alive = false;
    };
  }, [text]);
  return url;
}
