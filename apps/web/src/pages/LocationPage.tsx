import { useState } from 'react';
import { Tabs } from 'antd';
import { useLocation } from 'react-router-dom';
import { useDocumentTitle } from '../lib/useDocumentTitle';
import { PageHeader } from '../ui/PageHeader';
import { AssetLocationWizard } from '../features/location/AssetLocationWizard';
import { CsvWizard } from '../features/location/CsvWizard';
import { CompanyIndexPanel } from '../features/location/CompanyIndexPanel';
import { ExistingAssetsPanel } from '../features/location/ExistingAssetsPanel';

export function LocationPage() {
  useDocumentTitle('Create a portfolio');
  const location = useLocation();
  const handed = (location.state as { assets?: unknown } | null)?.assets;
  const [assets, setAssets] = useState(() => (Array.isArray(handed) && handed.length > 0 ? (handed as Record<string, unknown>[]) : null));
  return (
    <div className="crp-page crp-page-wide">
      <PageHeader
        title="Create a portfolio"
        subtitle="Mark asset locations on the map, upload them from a spreadsheet, or pick listed companies or a benchmark index; then choose the hazards to assess."
      />
      {assets && <ExistingAssetsPanel assets={assets} onDismiss={() => setAssets(null)} />}
      <Tabs
        destroyOnHidden={false}
        items={[
          { key: 'map', label: 'Asset Location', children: <AssetLocationWizard /> },
          { key: 'csv', label: 'Multiple Asset CSV', children: <CsvWizard /> },
          { key: 'companies', label: 'Companies & Index', children: <CompanyIndexPanel /> },
        ]}
      />
    </div>
  );
}
