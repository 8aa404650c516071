import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, InputNumber, Skeleton, Space, Tabs, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { modifyCarbonAnalysis } from '../../api/carbon';
import { firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { ButtonLink } from '../../ui/ButtonLink';
import { readUserId } from '../../lib/storage';
import { CarbonCharts, CarbonOutputTable, CarbonTotals, OtherEnvironmentMetric } from './CarbonOutputs';
import { ServerErrors } from './CarbonModule';
import { CompanyTable } from './CompanyTable';
import { stripKeys, withKeys, withNav, type EditableRow } from './carbonRows';
import { useCarbonAnalysis, useCarbonData } from './useCarbon';

function Outputs({ name }: { name: string }) {
  const analysis = useCarbonAnalysis(name);
  if (analysis.isPending) return <Skeleton active />;
  if (analysis.isError)
    return (
      <Alert type="error" showIcon title="The carbon analysis could not be loaded" description={firstErrorMessage(analysis.error, 'Try again in a moment.')} />
    );
  const d = analysis.data;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <CarbonTotals data={d} />
      <Card className="crp-card" title="Output Data" size="small">
        <CarbonOutputTable data={d} />
        {d.table_data.some((r) => r.note) && (
          <Alert
            type="warning"
            showIcon
            style={{ marginTop: 12 }}
            title="Some companies have no emissions"
            description={
              <ul>
                {d.table_data
                  .filter((r) => r.note)
                  .map((r, i) => (
                    <li key={i}>
                      {r.company_name}: {r.note}
                    </li>
                  ))}
              </ul>
            }
          />
        )}
      </Card>
      <CarbonCharts data={d} />
    </Space>
  );
}

function OtherMetricTab({ name }: { name: string }) {
  const analysis = useCarbonAnalysis(name);
  if (!analysis.data) return <Skeleton active />;
  return <OtherEnvironmentMetric data={analysis.data} />;
}

/** /transition-analysis: the output data of a carbon project (spec 001 §2.4). */
export function TransitionAnalysisView({ name }: { name: string }) {
  return (
    <Tabs
      items={[
        { key: 'output', label: 'Carbon Analysis', children: <Outputs name={name} /> },
        { key: 'other', label: 'Other Environment Metric', children: <OtherMetricTab name={name} /> },
      ]}
      tabBarExtraContent={
        <ButtonLink to="/edit-transition" state={{ project_name: name }}>
          Edit inputs
        </ButtonLink>
      }
    />
  );
}

function InputEditor({ name }: { name: string }) {
  const userId = readUserId();
  const qc = useQueryClient();
  const data = useCarbonData(name);
  const [rows, setRows] = useState<EditableRow[] | null>(null);
  const [value, setValue] = useState<number | null>(null);
  useEffect(() => {
    if (data.data && rows === null) {
      setRows(withKeys(data.data.companies_data));
      setValue(data.data.portfolio_value);
    }
  }, [data.data, rows]);
  const tableRows = useMemo(() => withNav(rows ?? [], value), [rows, value]);
  const save = useMutation({
    mutationFn: () => modifyCarbonAnalysis(userId!, { portfolio_name: name, portfolio_value: value!, companies_data: stripKeys(tableRows) }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.carbon }),
  });
  if (data.isPending || rows === null)
    return data.isError ? (
      <Alert type="error" showIcon title="The inputs could not be loaded" description={firstErrorMessage(data.error, 'Try again in a moment.')} />
    ) : (
      <Skeleton active />
    );
  const canEdit = data.data?.project.permission !== 'read';
  const missing = value === null || !(value > 0);
  return (
    <Card className="crp-card" title="Input Data" size="small">
      <ServerErrors error={save.error} />
      {!canEdit && <Alert type="info" showIcon title="You have read access: the inputs cannot be changed." style={{ marginBottom: 12 }} />}
      <Form.Item
        label="Portfolio Value (USD)"
        required
        validateStatus={missing ? 'error' : undefined}
        help={missing ? 'Required Field' : undefined}
        style={{ marginBottom: 12 }}
      >
        <InputNumber<number>
          value={value}
          min={0}
          style={{ width: 260 }}
          disabled={!canEdit}
          data-testid="portfolio-value"
          formatter={(x) => (x === undefined || x === null || String(x) === '' ? '' : Number(x).toLocaleString('en-US', { maximumFractionDigits: 2 }))}
          parser={(x) => Number((x ?? '').replace(/,/g, ''))}
          onChange={(v) => setValue(typeof v === 'number' ? v : null)}
        />
      </Form.Item>
      <CompanyTable rows={tableRows} onChange={setRows} disabled={!canEdit || save.isPending} />
      <div style={{ marginTop: 12, display: 'flex', justifyContent: 'flex-end', gap: 12, alignItems: 'center' }}>
        {save.isSuccess && !save.isPending && (
          <Typography.Text type="success" data-testid="saved">
            Saved and re-computed.
          </Typography.Text>
        )}
        <Button
          type="primary"
          disabled={!canEdit || missing || tableRows.length === 0}
          loading={save.isPending}
          onClick={() => save.mutate()}
          data-testid="save-recompute"
        >
          Save and re-compute
        </Button>
      </div>
    </Card>
  );
}

/** /edit-transition: the input table editable in place, with the output table and portfolio totals (spec 001 §2.4). */
export function EditTransitionView({ name }: { name: string }) {
  return (
    <Tabs
      items={[
        {
          key: 'analysis',
          label: 'Carbon Analysis',
          children: (
            <Space direction="vertical" size={16} style={{ width: '100%' }}>
              <InputEditor name={name} />
              <Outputs name={name} />
            </Space>
          ),
        },
        { key: 'other', label: 'Other Environment Metric', children: <OtherMetricTab name={name} /> },
      ]}
    />
  );
}
