import type { MouseEvent } from 'react';
import { Empty, Skeleton, Tag } from 'antd';
import { useNavigate } from 'react-router-dom';
import type { FaqItem } from './faqApi';

/**
 * FAQ items: question title, HTML answer and optional images (spec 001 §2.8). The answer HTML was sanitised by the
 * server with an allow-list (no scripts, event handlers or javascript: URLs), so it is rendered as HTML here.
 */
export function FaqItemList({
  items,
  loading,
  emptyText,
  onKeyword,
}: {
  items: FaqItem[] | undefined;
  loading: boolean;
  emptyText: string;
  onKeyword?: (name: string) => void;
}) {
  const navigate = useNavigate();
  if (loading) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (!items?.length) return <Empty description={emptyText} className="crp-faq-empty" />;

  // In-app links inside answers (e.g. /methodology) navigate without reloading the app.
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const a = (e.target as HTMLElement).closest('a');
    const href = a?.getAttribute('href');
    if (!a || !href || a.target === '_blank' || !href.startsWith('/') || href.startsWith('//') || href.startsWith('/docs') || e.metaKey || e.ctrlKey) return;
    e.preventDefault();
    navigate(href);
  };

  return (
    <div className="crp-faq-items" data-testid="faq-items">
      {items.map((item) => (
        <article className="crp-faq-item" key={item.id} data-testid="faq-item">
          <h3 className="crp-faq-item-title">{item.title}</h3>
          <div className="crp-faq-answer" onClick={onClick} dangerouslySetInnerHTML={{ __html: item.content }} />
          {item.attachments.length > 0 && (
            <div className="crp-faq-attachments">
              {item.attachments.map((src) => (
                <img key={src} src={src} alt={`Illustration for: ${item.title}`} loading="lazy" />
              ))}
            </div>
          )}
          {onKeyword && item.keywords.length > 0 && (
            <div className="crp-faq-item-tags">
              {item.keywords.map((k) => (
                <Tag key={k} className="crp-faq-tag" onClick={() => onKeyword(k)} role="button">
                  {k}
                </Tag>
              ))}
            </div>
          )}
        </article>
      ))}
    </div>
  );
}
