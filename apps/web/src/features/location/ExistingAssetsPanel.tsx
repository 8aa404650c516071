import { useState } from 'react';
import { Alert, Button, Card, Radio, Select, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { ASSET_FIELDS, isNA, NA } from '@crp/contracts';
import { fetchAllProjects } from '../../api/projects';
import { queryKeys } from '../../api/queryKeys';
import { AnalysisProgress } from './AnalysisProgress';
import { SubmitProblemDialog } from './SubmitProblemDialog';
import { useCreatePortfolio } from './useCreatePortfolio';

type Mode = 'add' | 'overwrite';

/** Assets handed over in route state: add them to an existing portfolio or overwrite one (spec 000 §2). */
export function ExistingAssetsPanel({ assets, onDismiss }: { assets: Record<string, unknown>[]; onDismiss: () => void }) {
  const [mode, setMode] = useState<Mode>('add');
  const [portfolio, setPortfolio] = useState<string | null>(null);
  const names = useQuery({ queryKey: queryKeys.projectNames('physical_risk'), queryFn: () => fetchAllProjects('physical_risk') });
  const create = useCreatePortfolio();

  if (create.created) return <AnalysisProgress project={create.created} onStartOver={onDismiss} />;

  const submit = () => {
    if (!portfolio) return;
    const data = assets.map((a) => Object.fromEntries(ASSET_FIELDS.map((f) => [f.key, isNA(a[f.key]) ? NA : a[f.key]])));
    create.submit({ portfolio_name: portfolio, data, mode });
  };

  return (
    <Card className="crp-card crp-mb" title={`${assets.length} ${assets.length === 1 ? 'asset' : 'assets'} ready to add`} data-testid="existing-assets">
      <Radio.Group value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
        <Radio value="add">Add to an existing portfolio</Radio>
        <Radio value="overwrite">Overwrite an existing portfolio</Radio>
      </Radio.Group>
      <div className="crp-mt">
        <label className="crp-field-label" htmlFor="existing-portfolio">
          Portfolio
        </label>
        <Select
          id="existing-portfolio"
          className="crp-select-wide"
          placeholder="Choose a portfolio"
          loading={names.isPending}
          value={portfolio}
          onChange={setPortfolio}
          showSearch
          optionFilterProp="label"
          options={(names.data ?? []).map((p) => ({ value: p.name, label: p.name }))}
        />
      </div>
      {mode === 'overwrite' && (
        <Alert className="crp-mt" type="warning" showIcon title="Overwrite replaces every asset of the chosen portfolio with these ones." />
      )}
      <Space className="crp-mt">
        <Button type="primary" onClick={submit} disabled={!portfolio || create.submitting} loading={create.submitting}>
          {mode === 'add' ? 'Add assets' : 'Overwrite portfolio'}
        </Button>
        <Button onClick={onDismiss}>Create a new portfolio instead</Button>
      </Space>
      <SubmitProblemDialog problem={create.problem} onClose={create.clearProblem} />
    </Card>
  );
}
