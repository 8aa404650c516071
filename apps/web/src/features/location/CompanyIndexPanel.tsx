import { useEffect, useMemo, useState } from 'react';
import { Alert, App, Button, Card, Col, Empty, Form, Input, Row, Select, Table, Tag, Typography } from 'antd';
import { DeleteOutlined, SearchOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { HAZARDS, PROJECT_NAME_MAX_LENGTH } from '@crp/contracts';
import { addIndexPortfolio, fetchIndices, searchCompanies, type CompanyHit } from '../../api/companies';
import { firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { readUserId } from '../../lib/storage';
import { AnalysisProgress } from './AnalysisProgress';
import { formatCoord } from '../../lib/format';
import { SubmitProblemDialog } from './SubmitProblemDialog';
import { useCreatePortfolio } from './useCreatePortfolio';

/** Spec 000 §9: the company search waits 1 second after typing stops and needs more than 3 characters. */
export const SEARCH_DELAY_MS = 1000;
const MIN_CHARS = 4;
/** Spec 000 §9: a company or benchmark portfolio includes all ten hazards (Extreme Cold is SSP-only). */
const BENCHMARK_HAZARDS = HAZARDS.filter((h) => h.label !== 'Extreme Cold').map((h) => h.label);

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** Company search: pick listed companies at their headquarters (or listing) locations and analyse them together. */
function CompanySearch() {
  const [typed, setTyped] = useState('');
  const term = useDebounced(typed.trim(), SEARCH_DELAY_MS);
  const [picked, setPicked] = useState<CompanyHit[]>([]);
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const create = useCreatePortfolio();
  const search = useQuery({
    queryKey: queryKeys.companySearch(term),
    queryFn: ({ signal }) => searchCompanies(term, signal),
    enabled: term.length >= MIN_CHARS,
    staleTime: 5 * 60_000,
  });
  const pickedKeys = useMemo(() => picked.map((p) => p.ticker), [picked]);

  if (create.created) {
    return (
      <AnalysisProgress
        target="/company-dashboard"
        project={create.created}
        onStartOver={() => {
          create.reset();
          setPicked([]);
          setName('');
        }}
      />
    );
  }

  const toggle = (hit: CompanyHit, on: boolean) =>
    setPicked((p) => (on ? (p.some((x) => x.ticker === hit.ticker) ? p : [...p, hit]) : p.filter((x) => x.ticker !== hit.ticker)));
  const nameError = touched && name.trim() === '' ? 'Required Field' : undefined;
  const submit = () => {
    setTouched(true);
    if (name.trim() === '' || picked.length === 0 || create.submitting) return;
    const seen = new Set<string>();
    create.submit({
      portfolio_name: name.trim(),
      portfolio_variables: BENCHMARK_HAZARDS,
      ticker: picked.map((p) => p.ticker).join(','),
      is_benchmark: false,
      data: picked.map((p) => {
        let n = p.company_name;
        if (seen.has(n.toLowerCase())) n = `${n} (${p.ticker})`;
        seen.add(n.toLowerCase());
        return { name: n, latitude: p.latitude, longitude: p.longitude, country_code: p.country_code ?? 'NA', property_type: 'Commercial' };
      }),
    });
  };

  const short = typed.trim().length > 0 && typed.trim().length < MIN_CHARS;
  return (
    <Card className="crp-card" title="Company search" data-testid="company-search">
      <Input
        allowClear
        prefix={<SearchOutlined aria-hidden />}
        placeholder="Company name or ticker (more than 3 characters)"
        aria-label="Search companies"
        value={typed}
        onChange={(e) => setTyped(e.target.value)}
      />
      <div className="crp-muted crp-small crp-mt-sm" aria-live="polite">
        {short
          ? 'Type more than 3 characters.'
          : typed.trim() !== term || search.isFetching
            ? typed.trim()
              ? 'Searching...'
              : 'Results show the ticker, company name and index; tick the companies to analyse.'
            : search.data
              ? `${search.data.length} ${search.data.length === 1 ? 'company' : 'companies'} found${search.data.length === 50 ? ' (the first 50)' : ''}.`
              : 'Results show the ticker, company name and index; tick the companies to analyse.'}
      </div>
      {search.isError && <Alert className="crp-mt-sm" type="error" showIcon title={firstErrorMessage(search.error, 'The search failed.')} />}
      {term.length >= MIN_CHARS && search.data && (
        <Table<CompanyHit>
          className="crp-mt-sm"
          data-testid="company-results"
          size="small"
          rowKey="ticker"
          dataSource={search.data}
          pagination={{ pageSize: 50, hideOnSinglePage: true }}
          locale={{ emptyText: <Empty description="No company matches" /> }}
          rowSelection={{
            selectedRowKeys: pickedKeys,
            onSelect: (r, on) => toggle(r, on),
            onSelectAll: (on, _rows, changed) => changed.forEach((r) => toggle(r, on)),
          }}
          columns={[
            { title: 'Ticker', dataIndex: 'ticker', width: 110 },
            { title: 'Company', dataIndex: 'company_name' },
            { title: 'Index', dataIndex: 'index', width: 120 },
            {
              title: 'Location',
              key: 'loc',
              render: (_: unknown, r) => (
                <span className="crp-small">
                  {r.country_code ?? ''} {r.approximate && <Tag title={`Placed at the ${r.location_basis}`}>approximate</Tag>}
                </span>
              ),
            },
          ]}
        />
      )}
      <Typography.Title level={5} className="crp-mt-md">
        Selected companies ({picked.length})
      </Typography.Title>
      {picked.length === 0 ? (
        <div className="crp-muted">None yet.</div>
      ) : (
        <Table<CompanyHit>
          data-testid="company-selected"
          size="small"
          rowKey="ticker"
          dataSource={picked}
          pagination={false}
          columns={[
            { title: 'Ticker', dataIndex: 'ticker', width: 110 },
            { title: 'Company', dataIndex: 'company_name' },
            { title: 'Latitude', key: 'lat', render: (_: unknown, r) => formatCoord(r.latitude) },
            { title: 'Longitude', key: 'lng', render: (_: unknown, r) => formatCoord(r.longitude) },
            { title: 'Basis', dataIndex: 'location_basis' },
            {
              title: '',
              key: 'rm',
              width: 48,
              render: (_: unknown, r) => (
                <Button type="text" danger icon={<DeleteOutlined />} aria-label={`Remove ${r.company_name}`} onClick={() => toggle(r, false)} />
              ),
            },
          ]}
        />
      )}
      <Form layout="vertical" className="crp-mt-md" onFinish={submit}>
        <Form.Item label="Portfolio Name" htmlFor="company-portfolio-name" required validateStatus={nameError ? 'error' : undefined} help={nameError}>
          <Input
            id="company-portfolio-name"
            value={name}
            maxLength={PROJECT_NAME_MAX_LENGTH}
            onChange={(e) => setName(e.target.value)}
            onBlur={() => setTouched(true)}
            placeholder="e.g. Banks in Hong Kong"
          />
        </Form.Item>
        <div className="crp-muted crp-small">Hazards: all ten ({BENCHMARK_HAZARDS.join(', ')}).</div>
        <Button className="crp-mt-sm" type="primary" htmlType="submit" loading={create.submitting} disabled={picked.length === 0}>
          Analyse {picked.length || ''} {picked.length === 1 ? 'company' : 'companies'}
        </Button>
      </Form>
      <SubmitProblemDialog problem={create.problem} onClose={create.clearProblem} />
    </Card>
  );
}

/** Index benchmark: a portfolio of every member of an index (HSI by default), then the project list. */
function IndexBenchmark() {
  const userId = readUserId();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const indices = useQuery({
    queryKey: queryKeys.indices(userId ?? 0),
    queryFn: () => fetchIndices(userId!),
    enabled: userId !== null,
    staleTime: 60 * 60_000,
  });
  const [index, setIndex] = useState<string | null>(null);
  const chosen = index ?? indices.data?.find((i) => i.default)?.index_name ?? null;
  const info = indices.data?.find((i) => i.index_name === chosen);
  const [name, setName] = useState('');
  const add = useMutation({
    mutationFn: () => addIndexPortfolio(userId!, chosen!, (name.trim() || `${chosen} benchmark`).slice(0, PROJECT_NAME_MAX_LENGTH)),
    onSuccess: (res) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects });
      void message.success(res.detail);
      navigate('/project');
    },
  });
  return (
    <Card className="crp-card" title="Index benchmark" data-testid="index-benchmark">
      <p className="crp-muted">Analyse every member of a stock index at its headquarters or listing location, to compare a portfolio with its benchmark.</p>
      <Form layout="vertical" onFinish={() => chosen && !add.isPending && add.mutate()}>
        <Form.Item label="Index">
          <Select
            aria-label="Index"
            loading={indices.isLoading}
            value={chosen ?? undefined}
            onChange={setIndex}
            options={(indices.data ?? []).map((i) => ({ value: i.index_name, label: `${i.index_name} · ${i.members} members` }))}
          />
        </Form.Item>
        {info && (
          <div className="crp-muted crp-small" data-testid="index-source">
            {info.members} members · {info.source} · as of {info.as_of}
          </div>
        )}
        <Form.Item label="Portfolio Name" htmlFor="index-portfolio-name" className="crp-mt-sm">
          <Input
            id="index-portfolio-name"
            value={name}
            maxLength={PROJECT_NAME_MAX_LENGTH}
            onChange={(e) => setName(e.target.value)}
            placeholder={chosen ? `${chosen} benchmark` : ''}
          />
        </Form.Item>
        {add.isError && <Alert type="error" showIcon className="crp-mb-sm" title={firstErrorMessage(add.error, 'The index could not be added.')} />}
        <Button type="primary" htmlType="submit" loading={add.isPending} disabled={!chosen}>
          Add Index
        </Button>
      </Form>
    </Card>
  );
}

/** The company and index benchmark search of /location (spec 000 §2). */
export function CompanyIndexPanel() {
  return (
    <Row gutter={[20, 20]} data-testid="company-index-panel">
      <Col xs={24} xl={15}>
        <CompanySearch />
      </Col>
      <Col xs={24} xl={9}>
        <IndexBenchmark />
      </Col>
    </Row>
  );
}
