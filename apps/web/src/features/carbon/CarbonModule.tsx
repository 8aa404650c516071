import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, InputNumber, Space, Switch, Tabs, Typography, Upload } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { PROJECT_NAME_MAX_LENGTH } from '@crp/contracts';
import { createCarbonAnalysis, fetchCarbonTemplate, uploadCarbonCsv } from '../../api/carbon';
import { ApiError } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { saveBlob } from '../../lib/openFileLink';
import { readUserId } from '../../lib/storage';
import { CompanyTable } from './CompanyTable';
import { CreateCarbonProjectDialog } from './CreateCarbonProjectDialog';
import { defaultRow, stripKeys, withNav, type EditableRow } from './carbonRows';

/** The server's message and its row/column list, shown in red above the table (spec 001 §8). */
export function ServerErrors({ error }: { error: unknown }) {
  if (!error) return null;
  const detail = error instanceof ApiError ? (error.detail ?? 'The request failed.') : 'The request failed.';
  const list =
    error instanceof ApiError && error.body && typeof error.body === 'object' && Array.isArray((error.body as { error?: unknown }).error)
      ? (error.body as { error: string[] }).error
      : [];
  return (
    <Alert
      type="error"
      showIcon
      data-testid="carbon-error"
      title={detail}
      description={
        list.length > 1 ? (
          <ul className="crp-carbon-errors">
            {list.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        ) : undefined
      }
      style={{ marginBottom: 16 }}
    />
  );
}

function PortfolioValueField({ value, onChange, touched }: { value: number | null; onChange: (v: number | null) => void; touched: boolean }) {
  const missing = value === null || !(value > 0);
  return (
    <Form.Item
      label="Portfolio Value (USD)"
      required
      validateStatus={touched && missing ? 'error' : undefined}
      help={touched && missing ? 'Required Field' : undefined}
      style={{ marginBottom: 12 }}
    >
      <InputNumber<number>
        data-testid="portfolio-value"
        value={value}
        min={0}
        style={{ width: 260 }}
        formatter={(x) => (x === undefined || x === null || String(x) === '' ? '' : Number(x).toLocaleString('en-US', { maximumFractionDigits: 2 }))}
        parser={(x) => Number((x ?? '').replace(/,/g, ''))}
        onChange={(v) => onChange(typeof v === 'number' ? v : null)}
        placeholder="e.g. 100,000,000"
      />
    </Form.Item>
  );
}

/** /transition: Carbon Module > Input Data (editable company table) and Upload CSV (spec 001 §2.4, §5). */
export function CarbonModule() {
  const userId = readUserId();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [rows, setRows] = useState<EditableRow[]>(() => [defaultRow()]);
  const [value, setValue] = useState<number | null>(null);
  const [valueTouched, setValueTouched] = useState(false);
  const [dialogOpen, setDialogOpen] = useState(false);
  const [csvName, setCsvName] = useState('');
  const [csvValue, setCsvValue] = useState<number | null>(null);
  const [csvTouched, setCsvTouched] = useState(false);
  const [csvOverwrite, setCsvOverwrite] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const tableRows = useMemo(() => withNav(rows, value), [rows, value]);

  const done = async (name: string) => {
    await qc.invalidateQueries({ queryKey: queryKeys.carbon });
    navigate('/transition-analysis', { state: { project_name: name } });
  };
  const create = useMutation({
    mutationFn: (v: { name: string; overwrite: boolean }) =>
      createCarbonAnalysis(userId!, { portfolio_name: v.name, portfolio_value: value!, companies_data: stripKeys(tableRows), overwrite: v.overwrite }),
    onSuccess: (r) => done(r.project.project_name),
    onSettled: () => setDialogOpen(false),
  });
  const upload = useMutation({
    mutationFn: () => uploadCarbonCsv(userId!, { portfolio_name: csvName.trim(), portfolio_value: csvValue!, file: file!, overwrite: csvOverwrite }),
    onSuccess: (r) => done(r.project.project_name),
  });
  const template = useMutation({
    mutationFn: fetchCarbonTemplate,
    onSuccess: (t) => saveBlob(t.blob, t.fileName),
    onError: () => console.error('Failed to fetch the CSV template.'),
  });

  const valueMissing = value === null || !(value > 0);
  const csvReady = csvName.trim() !== '' && csvValue !== null && csvValue > 0 && file !== null;

  const notes = (
    <Typography.Paragraph className="crp-muted" style={{ fontSize: 13 }}>
      Note 1: NAV% = company investment value / portfolio value. Note 2: scope 1 and 2 emission may be left blank (0); the platform then projects it from the
      company&apos;s revenue, region and sector with published emission factors, and marks it as projected.
    </Typography.Paragraph>
  );

  const inputTab = (
    <Card className="crp-card">
      <ServerErrors error={create.error} />
      <PortfolioValueField
        value={value}
        onChange={(v) => {
          setValue(v);
          setValueTouched(true);
        }}
        touched={valueTouched}
      />
      {notes}
      <CompanyTable rows={tableRows} onChange={setRows} disabled={create.isPending} />
      <div style={{ marginTop: 16, display: 'flex', justifyContent: 'flex-end' }}>
        <Button
          type="primary"
          disabled={valueMissing || rows.length === 0}
          loading={create.isPending}
          onClick={() => {
            create.reset();
            setDialogOpen(true);
          }}
          data-testid="table-submit"
        >
          Submit
        </Button>
      </div>
      <CreateCarbonProjectDialog
        open={dialogOpen}
        saving={create.isPending}
        onCancel={() => setDialogOpen(false)}
        onSubmit={(name, overwrite) => create.mutate({ name, overwrite })}
      />
    </Card>
  );

  const csvTab = (
    <Card className="crp-card">
      <ServerErrors error={upload.error} />
      <Space direction="vertical" size={12} style={{ width: '100%' }}>
        <Button icon={<DownloadOutlined />} onClick={() => template.mutate()} loading={template.isPending} data-testid="carbon-template">
          Download CSV template
        </Button>
        <Typography.Text className="crp-muted">
          Columns: company_name, investment_in_usd, nav_in_perc (computed, may be blank), market_cap_in_usd, revenue_in_usd, scope_1_and_2_GHG_emission (blank
          becomes 0 and is projected), region, sector.
        </Typography.Text>
        <Form layout="vertical">
          <Form.Item
            label="Portfolio Name"
            required
            validateStatus={csvTouched && !csvName.trim() ? 'error' : undefined}
            help={csvTouched && !csvName.trim() ? 'Required Field' : undefined}
            style={{ marginBottom: 12 }}
          >
            <Input
              value={csvName}
              onChange={(e) => {
                setCsvName(e.target.value);
                setCsvTouched(true);
              }}
              style={{ width: 360 }}
              maxLength={PROJECT_NAME_MAX_LENGTH}
              data-testid="csv-name"
            />
          </Form.Item>
          <PortfolioValueField
            value={csvValue}
            onChange={(v) => {
              setCsvValue(v);
              setCsvTouched(true);
            }}
            touched={csvTouched}
          />
          <Form.Item label="Overwrite existing project of the same name" style={{ marginBottom: 12 }}>
            <Switch checked={csvOverwrite} onChange={setCsvOverwrite} />
          </Form.Item>
          <Upload
            accept=".csv,.xlsx,.xls"
            maxCount={1}
            beforeUpload={(f) => {
              setFile(f);
              return false;
            }}
            onRemove={() => setFile(null)}
            fileList={file ? [{ uid: 'f', name: file.name, status: 'done' }] : []}
          >
            <Button icon={<UploadOutlined />} data-testid="csv-file">
              Choose CSV file
            </Button>
          </Upload>
        </Form>
        {notes}
        <Button type="primary" disabled={!csvReady} loading={upload.isPending} onClick={() => upload.mutate()} data-testid="csv-submit">
          Submit
        </Button>
      </Space>
    </Card>
  );

  return (
    <Tabs
      items={[
        {
          key: 'module',
          label: 'Carbon Module',
          children: (
            <Tabs
              type="card"
              items={[
                { key: 'input', label: 'Input Data', children: inputTab },
                { key: 'csv', label: 'Upload CSV', children: csvTab },
              ]}
            />
          ),
        },
      ]}
    />
  );
}
