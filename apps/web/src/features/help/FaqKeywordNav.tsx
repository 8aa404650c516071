import { Skeleton } from 'antd';
import type { FaqKeyword } from './faqApi';

/** Left sidebar of keyword categories with their child keywords (spec 001 §2.8). */
export function FaqKeywordNav({
  keywords,
  loading,
  active,
  onSelect,
}: {
  keywords: FaqKeyword[];
  loading: boolean;
  active: string | null;
  onSelect: (name: string) => void;
}) {
  if (loading) return <Skeleton active paragraph={{ rows: 8 }} />;
  return (
    <nav className="crp-faq-nav" aria-label="FAQ keywords" data-testid="faq-keywords">
      {keywords.map((cat) => (
        <div className="crp-faq-nav-group" key={cat.name}>
          <button
            type="button"
            className={`crp-faq-nav-category${active === cat.name ? ' is-active' : ''}`}
            aria-current={active === cat.name ? 'true' : undefined}
            onClick={() => onSelect(cat.name)}
          >
            {cat.name}
          </button>
          {cat.children.length > 0 && (
            <ul>
              {cat.children.map((child) => (
                <li key={child}>
                  <button
                    type="button"
                    className={`crp-faq-nav-child${active === child ? ' is-active' : ''}`}
                    aria-current={active === child ? 'true' : undefined}
                    onClick={() => onSelect(child)}
                  >
                    {child}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </nav>
  );
}
