import { useState } from 'react';
import { Tabs } from 'antd';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui/PageHeader';
import { PhysicalProjectsTab } from '../features/projects/PhysicalProjectsTab';
import { TransitionProjectsTab } from '../features/carbon/TransitionProjectsTab';
import { MapProjectsTab } from '../features/maps/MapProjectsTab';

export function ProjectPage() {
  useDocumentTitle('Projects');
  const [tab, setTab] = useState('physical');
  return (
    <div className="crp-page">
      <PageHeader title="Projects" subtitle="Your portfolios and the ones colleagues shared with you." />
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'physical', label: 'Physical Risk', children: <PhysicalProjectsTab /> },
          { key: 'transition', label: 'Transition Risk', children: <TransitionProjectsTab active={tab === 'transition'} /> },
          { key: 'maps', label: 'Maps', children: <MapProjectsTab active={tab === 'maps'} /> },
        ]}
      />
    </div>
  );
}
