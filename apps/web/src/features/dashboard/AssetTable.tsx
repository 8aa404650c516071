import { useEffect, useMemo, useRef, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, AutoComplete, Button, Input, InputNumber, Select, Space, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { EditOutlined, ExpandOutlined, LockOutlined, ReloadOutlined, SaveOutlined, SearchOutlined } from '@ant-design/icons';
import { CLIMATE_SCORE_COLOURS, climateScoreLevel } from '@crp/contracts';
import { fetchAssetPage, type AssetRow, type DashboardData, type DashboardFiltersSent, type UpdateAssetsResult } from '../../api/dashboard';
import { ASSET_COLUMNS, canEdit, CONSTRUCTION_OPTIONS, MITIGATION_OPTIONS, type AssetColumn, type CellValue } from './assetColumns';
import { money, percent, truncate } from '../../lib/format';
import { INFO } from './infoTexts';
import { FloodMitigationGuide } from '../../ui/FloodMitigationGuide';
import { InfoButton, Section } from './Section';
import { useAssetTableEdit } from './useAssetTableEdit';

function display(col: AssetColumn, v: CellValue | undefined) {
  if (v === null || v === undefined || v === '') return <span className="crp-muted">—</span>;
  switch (col.kind) {
    case 'money':
      return money(Number(v));
    case 'percent':
      return percent(Number(v));
    case 'score': {
      const n = Number(v);
      return <span style={{ color: CLIMATE_SCORE_COLOURS[climateScoreLevel(n)], fontWeight: 600 }}>{n}</span>;
    }
    case 'mitigation':
      return MITIGATION_OPTIONS.find((o) => o.value === Number(v))?.label.replace(/^\d /, '') ?? String(v);
    case 'basement':
      return v === true ? 'Yes' : v === false ? 'No' : String(v);
    case 'construction':
      return CONSTRUCTION_OPTIONS.find((o) => o.value === v)?.label ?? String(v);
    case 'coord':
      return Number(v).toFixed(4);
    case 'text':
      return <Tooltip title={String(v).length > 15 ? String(v) : undefined}>{truncate(String(v))}</Tooltip>;
    default:
      return typeof v === 'number' ? v.toLocaleString('en-US') : String(v);
  }
}

function Editor({
  col,
  row,
  value,
  onChange,
  error,
  propertyTypes,
}: {
  col: AssetColumn;
  row: AssetRow;
  value: CellValue | undefined;
  onChange: (v: CellValue) => void;
  error?: string;
  propertyTypes: string[];
}) {
  const label = `${col.title} of ${row.name}`;
  const status = error ? ('error' as const) : undefined;
  /** What every cell editor shares: size, accessible name ("Valuation of Oslo Office"), error state and full width. */
  const common = { size: 'small' as const, 'aria-label': label, status, style: { width: '100%' } };
  let input;
  switch (col.kind) {
    case 'text':
      input = <Input {...common} style={undefined} value={(value as string | null) ?? ''} onChange={(e) => onChange(e.target.value)} />;
      break;
    case 'type':
      input = (
        <AutoComplete
          {...common}
          value={(value as string | null) ?? ''}
          onChange={(v) => onChange(v)}
          options={propertyTypes.map((t) => ({ value: t }))}
          filterOption={(input, o) =>
            String(o?.value ?? '')
              .toLowerCase()
              .includes(input.toLowerCase())
          }
        />
      );
      break;
    case 'mitigation':
      input = <Select {...common} value={value as number} onChange={(v) => onChange(v)} options={MITIGATION_OPTIONS} />;
      break;
    case 'basement':
      input = (
        <Select
          {...common}
          value={value === true ? 'yes' : value === false ? 'no' : undefined}
          placeholder="—"
          onChange={(v) => onChange(v === 'yes')}
          options={[
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ]}
        />
      );
      break;
    case 'construction':
      input = <Select {...common} value={(value as string | null) ?? undefined} placeholder="—" onChange={(v) => onChange(v)} options={CONSTRUCTION_OPTIONS} />;
      break;
    default:
      input = (
        <InputNumber
          {...common}
          value={typeof value === 'number' ? value : value === null || value === undefined || value === '' ? null : Number(value)}
          min={0}
          max={col.kind === 'ownership' ? 100 : undefined}
          precision={col.kind === 'integer' ? 0 : undefined}
          onChange={(v) => onChange(v === null ? null : Number(v))}
        />
      );
  }
  return (
    <div className="crp-dash-cell">
      {input}
      {error && (
        <div className="crp-dash-cell-error" role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

const MEASURE_TEXT: Record<string, (v: number) => string> = {
  intensityReduction: (v) => `intensity reduced by ${Math.round(v * 100)} %`,
  protectionRpYears: (v) => `protected up to the ${v}-year event`,
  damageScale: (v) => `damage scaled to ${Math.round(v * 100)} %`,
};

/** Mitigation levels and the default adaptation measure each applies per hazard (metigation_measures). */
function MitigationInfo({ measures }: { measures: DashboardData['metigation_measures'] }) {
  const hazards = Object.keys(measures ?? {});
  return (
    <InfoButton title="Mitigation levels" width={860}>
      <p>0 No, 1 Low, 2 Medium, 3 High. Each level applies these default measures (spec: flood measures farther than 20 m have no effect):</p>
      <Table
        size="small"
        pagination={false}
        rowKey="hazard"
        dataSource={hazards.map((h) => ({ hazard: h, levels: measures[h]! }))}
        columns={[
          { title: 'Hazard', dataIndex: 'hazard' },
          ...[1, 2, 3].map((lvl) => ({
            title: ['Low', 'Medium', 'High'][lvl - 1],
            key: String(lvl),
            render: (_: unknown, r: { levels: DashboardData['metigation_measures'][string] }) => {
              const m = r.levels.find((x) => x.level === lvl)?.measure ?? {};
              const parts = Object.entries(m).map(([k, v]) => (MEASURE_TEXT[k] ? MEASURE_TEXT[k](v) : `${k} ${v}`));
              return parts.length ? parts.join('; ') : '—';
            },
          })),
        ]}
      />
    </InfoButton>
  );
}

/** Flood Risk Reduction Level guidance (spec 001 §2.1): which mitigation level to enter for the flood measures around an asset. */
function FloodRiskReductionInfo() {
  return (
    <InfoButton title="Flood Risk Reduction Level" width={760}>
      <FloodMitigationGuide />
      <p className="crp-mt-md">
        Enter the level in the Mitigation column: High as 3, Median as 2 (Medium), Low as 1 and None as 0. For river, rainfall and coastal flood the levels keep
        the first 0.3 m of water out (Low), 0.6 m and every flood more frequent than once in 10 years (Medium), or 0.9 m and every flood more frequent than once
        in 25 years (High), before the depth-damage curve is read (Adaptation Methodology, section 2).
      </p>
    </InfoButton>
  );
}

type Sort = { key: string; order: 'asc' | 'desc' };
const DEFAULT_SORT: Sort = { key: 'position', order: 'asc' };

/** The same search and sort as the server's (api/v2/dashboard/assets/), over rows the answer carried (detail by year). */
function localPage(rows: AssetRow[], search: string, sort: Sort, offset: number, limit: number) {
  const q = search.trim().toLowerCase();
  let shown = q ? rows.filter((r) => r.name.toLowerCase().includes(q) || (r.type ?? '').toLowerCase().includes(q)) : rows;
  if (sort.key !== 'position' || sort.order === 'desc') {
    const key = sort.key as keyof AssetRow;
    const v = (r: AssetRow) => {
      const x = sort.key === 'position' ? 0 : r[key];
      return x === null || x === undefined || x === '' ? null : typeof x === 'string' ? x.toLowerCase() : Number(x);
    };
    const sign = sort.order === 'asc' ? 1 : -1;
    shown = shown
      .map((r, n) => ({ r, n, x: sort.key === 'position' ? n : v(r) }))
      .sort((a, b) =>
        a.x === null || b.x === null ? (a.x === b.x ? a.n - b.n : a.x === null ? 1 : -1) : a.x === b.x ? a.n - b.n : (a.x < b.x ? -1 : 1) * sign,
      )
      .map((e) => e.r);
  }
  return { rows: shown.slice(offset, offset + limit), total: shown.length, all: shown };
}

/** Text typed in the search box, applied after a short pause (one server query per pause, not per key). */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/**
 * The editable asset table (spec 001 §2.1, §4, §5): paginated (any number of rows), sortable by every column,
 * searchable, Edit All / Save All / Cancel, per-cell required validation, locked columns and columns gated by
 * data_edit_permissions. With `sent` (the dashboard page) the rows are asked page by page of the server
 * (api/v2/dashboard/assets/: sorted, searched and paged there, so a million-asset book is never sent whole); without
 * it they are the answer's own rows (detail by year).
 */
export function AssetTable({
  data,
  sent,
  onOpenAsset,
  onSaved,
}: {
  data: DashboardData;
  sent?: DashboardFiltersSent;
  onOpenAsset: (row: AssetRow) => void;
  onSaved: (r: UpdateAssetsResult) => void;
}) {
  const perms = data.data_edit_permissions;
  const cols = useMemo(() => ASSET_COLUMNS.filter((c) => canEdit(c, perms)), [perms]);
  const [search, setSearch] = useState('');
  const searched = useDebounced(search, 250);
  const [sort, setSort] = useState<Sort>(DEFAULT_SORT);
  const [page, setPage] = useState({ current: 1, pageSize: 20 });
  const locked = sent ? data.tier_permissions.asset_table !== true : !data.asset_table;
  const offset = (page.current - 1) * page.pageSize;
  const server = useQuery({
    queryKey: ['dashboard', 'assets', sent, searched, sort, offset, page.pageSize],
    queryFn: ({ signal }) => fetchAssetPage(sent!, { sort: sort.key, order: sort.order, search: searched, offset, limit: page.pageSize }, signal),
    enabled: !!sent && !locked,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
  const local = useMemo(
    () => (sent ? null : localPage(data.asset_table ?? [], search, sort, offset, page.pageSize)),
    [sent, data.asset_table, search, sort, offset, page.pageSize],
  );
  const shown: AssetRow[] = local ? local.rows : (server.data?.rows ?? []);
  const total = local ? local.total : (server.data?.total ?? data.per_asset_total ?? 0);
  // Every row seen while editing (across pages): the drafts of other pages are validated and sent with Save All.
  const seen = useRef(new Map<number, AssetRow>());
  for (const r of shown) seen.current.set(r.id, r);
  const editRowsSource = useMemo(() => (local ? (data.asset_table ?? []) : [...seen.current.values()]), [local, data.asset_table, shown]); // eslint-disable-line react-hooks/exhaustive-deps
  const ed = useAssetTableEdit({ rows: editRowsSource, cols, projectId: data.project.project_id, version: data.project.version, onSaved });

  const onSave = () => {
    const first = ed.saveAll();
    if (first && local) {
      // Show the page holding the first invalid cell.
      const id = Number(first.split(':')[0]);
      const i = local.all.findIndex((r) => r.id === id);
      if (i >= 0) setPage((p) => ({ ...p, current: Math.floor(i / p.pageSize) + 1 }));
    }
  };

  const columns: TableColumnsType<AssetRow> = [
    {
      key: 'open',
      title: <span className="crp-visually-hidden">Open</span>,
      fixed: 'left',
      width: 44,
      render: (_, r) => (
        <Button
          size="small"
          type="text"
          icon={<ExpandOutlined />}
          aria-label={`Open the analysis of ${r.name}`}
          onClick={() => onOpenAsset(r)}
          data-testid="open-asset"
        />
      ),
    },
    ...ASSET_COLUMNS.map((c) => {
      const editable = canEdit(c, perms);
      return {
        key: c.key,
        dataIndex: c.key,
        fixed: c.key === 'name' ? ('left' as const) : undefined,
        sorter: !ed.editing,
        sortOrder: sort.key === c.key ? (sort.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null,
        sortDirections: ['ascend' as const, 'descend' as const],
        width: c.width,
        title: (
          <span>
            {c.title}
            {c.key === 'mitigation_risk' && (
              <>
                <MitigationInfo measures={data.metigation_measures} />
                <FloodRiskReductionInfo />
              </>
            )}
            {ed.editing && !editable && (
              <Tooltip title={c.editable ? 'Your data-edit permissions do not allow this column' : 'Not editable'}>
                {' '}
                <LockOutlined className="crp-muted" aria-label="locked" />
              </Tooltip>
            )}
          </span>
        ),
        render: (_: unknown, r: AssetRow) => {
          const d = ed.draft[r.id];
          const v = d && c.key in d ? d[c.key] : (r[c.key] as CellValue);
          if (ed.editing && editable)
            return (
              <Editor
                col={c}
                row={r}
                value={v}
                onChange={(nv) => ed.setCell(r.id, c.key, nv)}
                error={ed.errors[`${r.id}:${c.key}`]}
                propertyTypes={data.property_types}
              />
            );
          return display(c, v);
        },
      };
    }),
  ];

  return (
    <Section
      testId="section-asset-table"
      title="Asset table"
      info={INFO.assetTable}
      locked={locked}
      extra={
        <Space wrap>
          <Input
            size="small"
            allowClear
            prefix={<SearchOutlined />}
            placeholder="Search assets"
            aria-label="Search assets"
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage((p) => ({ ...p, current: 1 }));
            }}
            style={{ width: 180 }}
          />
          {ed.editing ? (
            <>
              <Button type="primary" icon={<SaveOutlined />} onClick={onSave} loading={ed.saving} data-testid="save-all">
                Save All{ed.changed ? ` (${ed.changed})` : ''}
              </Button>
              <Button onClick={ed.cancel} disabled={ed.saving} data-testid="cancel-edit">
                Cancel
              </Button>
            </>
          ) : (
            <Button icon={<EditOutlined />} onClick={ed.startEdit} disabled={total === 0} data-testid="edit-all">
              Edit All
            </Button>
          )}
        </Space>
      }
    >
      {ed.problem && (
        <Alert
          className="crp-dash-alert"
          type={ed.problem.kind === 'conflict' ? 'warning' : 'error'}
          showIcon
          data-testid="save-problem"
          title={ed.problem.kind === 'conflict' ? 'Someone else saved first' : 'The assets were not saved'}
          description={ed.problem.message}
          action={
            ed.problem.kind === 'conflict' ? (
              <Button size="small" icon={<ReloadOutlined />} onClick={() => window.location.reload()}>
                Reload
              </Button>
            ) : undefined
          }
          closable
          onClose={() => ed.setProblem(null)}
        />
      )}
      {ed.editing && Object.keys(ed.errors).length > 0 && (
        <Typography.Paragraph type="danger" data-testid="validation-summary">
          {Object.keys(ed.errors).length} cell(s) need a value. Nothing was sent.
        </Typography.Paragraph>
      )}
      <Table<AssetRow>
        size="small"
        rowKey="id"
        dataSource={shown}
        columns={columns}
        loading={!!sent && server.isFetching}
        data-total={total}
        onChange={(_p, _f, sorter) => {
          const one = Array.isArray(sorter) ? sorter[0] : sorter;
          const next: Sort = one?.order && one.columnKey ? { key: String(one.columnKey), order: one.order === 'ascend' ? 'asc' : 'desc' } : DEFAULT_SORT;
          if (next.key !== sort.key || next.order !== sort.order) {
            setSort(next);
            setPage((p) => ({ ...p, current: 1 }));
          }
        }}
        scroll={{ x: 'max-content' }}
        onRow={(r) => ({ 'data-name': r.name }) as React.HTMLAttributes<HTMLTableRowElement>}
        pagination={{
          current: page.current,
          pageSize: page.pageSize,
          total,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50, 100],
          showTotal: (t) => `${t} assets`,
          onChange: (current, pageSize) => setPage({ current, pageSize }),
        }}
        data-testid="asset-table"
      />
    </Section>
  );
}
