import type { ReactNode } from 'react';
import { Typography } from 'antd';

export function PageHeader({ title, subtitle, extra }: { title: ReactNode; subtitle?: ReactNode; extra?: ReactNode }) {
  return (
    <header className="crp-page-header">
      <div>
        <Typography.Title level={2} className="crp-page-title">
          {title}
        </Typography.Title>
        {subtitle && <Typography.Paragraph className="crp-page-subtitle">{subtitle}</Typography.Paragraph>}
      </div>
      {extra && <div className="crp-page-header-extra">{extra}</div>}
    </header>
  );
}
