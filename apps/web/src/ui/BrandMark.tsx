import { PRODUCT_NAME, palette } from '../lib/brand';

/** The logo: two contour lines over a dark tile, with the product name unless `compact`. */
export function BrandMark({ compact = false, dark = false, size = 32 }: { compact?: boolean; dark?: boolean; size?: number }) {
  return (
    <span className="crp-brand" style={{ color: dark ? '#fff' : palette.ink }}>
      <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill={dark ? 'rgba(255,255,255,0.08)' : palette.navy} />
        <path d="M6 20c3-6 6-6 9 0s6 6 11-2" fill="none" stroke={palette.tealBright} strokeWidth="2.6" strokeLinecap="round" />
        <path d="M6 13c3-5 6-5 9 0s6 5 11-2" fill="none" stroke={palette.amber} strokeWidth="2.2" strokeLinecap="round" opacity="0.9" />
      </svg>
      {!compact && <span className="crp-brand-name">{PRODUCT_NAME}</span>}
    </span>
  );
}
