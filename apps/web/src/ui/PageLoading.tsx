import { Spin } from 'antd';

/** Fallback while a page's code loads. */
export function PageLoading({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <div className={fullScreen ? 'crp-page-loading crp-page-loading-full' : 'crp-page-loading'} role="status" aria-live="polite">
      <Spin size="large" />
      <span className="crp-visually-hidden">Loading…</span>
    </div>
  );
}
