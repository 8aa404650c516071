import { useEffect, useState } from 'react';
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
// The worker is bundled with the app (no CDN): Vite emits it as an asset and gives its URL.
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

GlobalWorkerOptions.workerSrc = workerUrl;

/** Pages shown first, and added at each step (spec 001 §2.10, §9). */
export const PAGES_PER_STEP = 5;
/** Milliseconds between steps. */
export const STEP_MS = 50;

/** Loads a PDF with pdf.js. */
export function usePdfDocument(url: string) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    let cancelled = false;
    setDoc(null);
    setError(null);
    const task = getDocument({ url, isEvalSupported: false });
    task.promise.then(
      (d) => {
        if (cancelled) void d.destroy();
        else setDoc(d);
      },
      (err: unknown) => {
        if (cancelled) return;
        console.error('PDF load failed', url, err);
        setError(err instanceof Error ? err : new Error(String(err)));
      },
    );
    return () => {
      cancelled = true;
      void task.destroy();
    };
  }, [url]);
  return { doc, error };
}

/** How many pages to show: 5 first, then 5 more every 50 ms until all are shown. */
export function useProgressivePageCount(total: number): number {
  const [shown, setShown] = useState(0);
  useEffect(() => {
    if (!total) {
      setShown(0);
      return;
    }
    setShown(Math.min(PAGES_PER_STEP, total));
    const timer = window.setInterval(() => {
      setShown((n) => {
        const next = Math.min(total, n + PAGES_PER_STEP);
        if (next >= total) window.clearInterval(timer);
        return next;
      });
    }, STEP_MS);
    return () => window.clearInterval(timer);
  }, [total]);
  return shown;
}
