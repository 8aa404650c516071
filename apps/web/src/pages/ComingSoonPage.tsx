import type { ReactNode } from 'react';
import { Card, Tag } from 'antd';
import { CheckCircleOutlined, ClockCircleOutlined } from '@ant-design/icons';
import { useLocation } from 'react-router-dom';
import { PageHeader } from '../ui/PageHeader';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { ButtonLink } from '../ui/ButtonLink';

export interface ComingSoonProps {
  title: string;
  description: string;
  icon?: ReactNode;
  /** What the finished page will let the user do, as short bullets. */
  highlights?: string[];
}

/** Honest placeholder for a signed-in page that is not built yet: what it will do, never a blank screen. */
export function ComingSoonPage({ title, description, icon, highlights = [] }: ComingSoonProps) {
  const { pathname } = useLocation();
  useDocumentTitle(title);
  return (
    <div className="crp-page">
      <PageHeader title={title} extra={<Tag icon={<ClockCircleOutlined />} color="gold">Coming soon</Tag>} />
      <Card className="crp-card crp-coming-soon" data-testid="coming-soon">
        <div className="crp-coming-soon-body">
          <div className="crp-coming-soon-icon" aria-hidden="true">
            {icon ?? <ClockCircleOutlined />}
          </div>
          <h2>This page is on its way</h2>
          <p>{description}</p>
          {highlights.length > 0 && (
            <ul className="crp-coming-soon-list">
              {highlights.map((h) => (
                <li key={h}>
                  <CheckCircleOutlined aria-hidden="true" /> {h}
                </li>
              ))}
            </ul>
          )}
          <div className="crp-coming-soon-actions">
            <ButtonLink to="/project" type="primary">
              Go to Projects
            </ButtonLink>
            {pathname !== '/changelog' && <ButtonLink to="/changelog">What&apos;s new</ButtonLink>}
          </div>
        </div>
      </Card>
    </div>
  );
}
