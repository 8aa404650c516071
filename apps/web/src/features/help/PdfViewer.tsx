import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Skeleton } from 'antd';
import { DownloadOutlined, ExportOutlined } from '@ant-design/icons';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { usePdfDocument, useProgressivePageCount } from './usePdfDocument';
import './help.css';

/** One page drawn on a canvas at `width` CSS pixels (sharp on high-density screens). */
function PdfPage({ doc, pageNumber, width }: { doc: PDFDocumentProxy; pageNumber: number; width: number }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [done, setDone] = useState(false);
  useEffect(() => {
    let task: RenderTask | null = null;
    let cancelled = false;
    void doc.getPage(pageNumber).then((page) => {
      const canvas = canvasRef.current;
      if (cancelled || !canvas) return;
      const base = page.getViewport({ scale: 1 });
      const scale = width / base.width;
      const dpr = Math.min(2, window.devicePixelRatio || 1);
      const viewport = page.getViewport({ scale: scale * dpr });
      canvas.width = Math.floor(viewport.width);
      canvas.height = Math.floor(viewport.height);
      canvas.style.width = `${width}px`;
      canvas.style.aspectRatio = `${base.width} / ${base.height}`;
      task = page.render({ canvas, viewport });
      task.promise.then(
        () => !cancelled && setDone(true),
        (err: unknown) => {
          if (!cancelled && (err as { name?: string })?.name !== 'RenderingCancelledException') console.error('PDF page render failed', pageNumber, err);
        },
      );
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, pageNumber, width]);
  return (
    <div className="crp-pdf-page" data-testid="pdf-page" data-page={pageNumber} data-rendered={done ? 'true' : 'false'} style={{ width }}>
      <canvas ref={canvasRef} role="img" aria-label={`Page ${pageNumber}`} />
    </div>
  );
}

/**
 * A PDF viewer (spec 001 §2.10): shows 5 pages first, then 5 more every 50 ms until all pages are shown. The document
 * is one of the app's own static files, generated from our markdown (`npm run docs:build`).
 */
export function PdfViewer({ url, width, title }: { url: string; width: number; title: string }) {
  const { doc, error } = usePdfDocument(url);
  const shown = useProgressivePageCount(doc?.numPages ?? 0);
  const fileName = url.split('/').pop() ?? 'document.pdf';
  return (
    <div className="crp-pdf" data-testid="pdf-viewer">
      <div className="crp-pdf-status" aria-live="polite">
        {doc ? `${title}: ${doc.numPages} pages${shown < doc.numPages ? ` (showing ${shown})` : ''}` : error ? '' : 'Loading the document…'}
      </div>
      {error && (
        <Alert
          type="error"
          showIcon
          title="The document could not be opened."
          description={
            <>
              Download it instead: <a href={url}>{fileName}</a>
            </>
          }
        />
      )}
      {!doc && !error && <Skeleton active paragraph={{ rows: 12 }} />}
      {doc && (
        <div className="crp-pdf-pages" data-testid="pdf-pages" data-total={doc.numPages} data-shown={shown}>
          {Array.from({ length: shown }, (_, i) => (
            <PdfPage key={i + 1} doc={doc} pageNumber={i + 1} width={width} />
          ))}
        </div>
      )}
    </div>
  );
}

export function PdfActions({ url }: { url: string }) {
  const fileName = url.split('/').pop() ?? 'document.pdf';
  return (
    <div className="crp-pdf-toolbar">
      <Button icon={<ExportOutlined />} href={url} target="_blank" rel="noopener">
        Open PDF
      </Button>
      <Button icon={<DownloadOutlined />} href={url} download={fileName}>
        Download
      </Button>
    </div>
  );
}
