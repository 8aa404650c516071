import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { CARBON_REGIONS, CARBON_SECTORS } from '@crp/contracts';
import { Button, Input, InputNumber, Popconfirm, Select, Table, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { defaultRow, fmt, type EditableRow } from './carbonRows';

const REGION_OPTIONS = CARBON_REGIONS.map((r) => ({ value: r, label: r }));
const SECTOR_OPTIONS = CARBON_SECTORS.map((s) => ({ value: s, label: s }));

type NumKey = 'investment_in_usd' | 'market_cap_in_usd' | 'revenue_in_usd' | 'scope_1_and_2_GHG_emission';

/**
 * The carbon input table (spec 001 §4 "Carbon input table"): rows are added with the spec's defaults, every cell
 * is edited in place, and a row is deleted after a confirmation. NAV% is computed, not typed.
 */
export function CompanyTable({ rows, onChange, disabled }: { rows: EditableRow[]; onChange: (rows: EditableRow[]) => void; disabled?: boolean }) {
  const set = (key: string, patch: Partial<EditableRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const numberCell = (field: NumKey, label: string) => (v: number | null, r: EditableRow, i: number) => (
    <InputNumber
      aria-label={`${label} row ${i + 1}`}
      data-testid={`cell-${field}-${i}`}
      value={v ?? 0}
      min={0}
      disabled={disabled}
      controls={false}
      style={{ width: '100%' }}
      formatter={(x) => (x === undefined || x === null || String(x) === '' ? '' : Number(x).toLocaleString('en-US', { maximumFractionDigits: 6 }))}
      parser={(x) => Number((x ?? '').replace(/,/g, '')) as unknown as 0}
      onChange={(x) => set(r.key, { [field]: typeof x === 'number' ? x : 0 } as Partial<EditableRow>)}
    />
  );
  const columns: ColumnsType<EditableRow> = [
    {
      title: 'Company Name',
      dataIndex: 'company_name',
      width: 150,
      render: (v: string, r, i) => (
        <Input
          aria-label={`Company Name row ${i + 1}`}
          data-testid={`cell-company_name-${i}`}
          value={v}
          disabled={disabled}
          status={v.trim() ? undefined : 'error'}
          onChange={(e) => set(r.key, { company_name: e.target.value })}
        />
      ),
    },
    { title: 'Investment (USD)', dataIndex: 'investment_in_usd', width: 125, render: numberCell('investment_in_usd', 'Investment') },
    { title: 'NAV %', dataIndex: 'nav_in_perc', width: 62, align: 'right', render: (v: number) => <span data-testid="nav">{fmt(v)}</span> },
    { title: 'Market Cap (USD)', dataIndex: 'market_cap_in_usd', width: 135, render: numberCell('market_cap_in_usd', 'Market Cap') },
    { title: 'Revenue (USD)', dataIndex: 'revenue_in_usd', width: 130, render: numberCell('revenue_in_usd', 'Revenue') },
    {
      title: (
        <Tooltip title="tCO2e per year. Leave 0 when not reported: the platform projects it from revenue, sector and region.">Scope 1+2 GHG (tCO2e)</Tooltip>
      ),
      dataIndex: 'scope_1_and_2_GHG_emission',
      width: 115,
      render: numberCell('scope_1_and_2_GHG_emission', 'Scope 1 and 2'),
    },
    {
      title: 'Region',
      dataIndex: 'region',
      width: 135,
      render: (v: string, r, i) => (
        <Select
          aria-label={`Region row ${i + 1}`}
          data-testid={`cell-region-${i}`}
          value={v}
          options={REGION_OPTIONS}
          disabled={disabled}
          style={{ width: '100%' }}
          onChange={(x) => set(r.key, { region: x })}
          showSearch
        />
      ),
    },
    {
      title: 'Sector',
      dataIndex: 'sector',
      width: 180,
      render: (v: string, r, i) => (
        <Select
          aria-label={`Sector row ${i + 1}`}
          data-testid={`cell-sector-${i}`}
          value={v}
          options={SECTOR_OPTIONS}
          disabled={disabled}
          style={{ width: '100%' }}
          onChange={(x) => set(r.key, { sector: x })}
          showSearch
          popupMatchSelectWidth={false}
        />
      ),
    },
    {
      title: '',
      key: 'actions',
      width: 44,
      fixed: 'right',
      render: (_: unknown, r, i) => (
        <Popconfirm
          title={`Delete ${r.company_name || 'this row'}?`}
          okText="Yes"
          cancelText="No"
          okButtonProps={{ danger: true }}
          onConfirm={() => onChange(rows.filter((x) => x.key !== r.key))}
          disabled={disabled}
        >
          <Button danger type="text" icon={<DeleteOutlined />} aria-label={`Delete row ${i + 1}`} disabled={disabled} />
        </Popconfirm>
      ),
    },
  ];
  return (
    <div className="crp-carbon-table">
      <Table<EditableRow>
        rowKey="key"
        size="small"
        columns={columns}
        dataSource={rows}
        pagination={false}
        scroll={{ x: 1076 }}
        locale={{ emptyText: 'No companies yet: add a row.' }}
        data-testid="carbon-input-table"
      />
      <Button icon={<PlusOutlined />} onClick={() => onChange([...rows, defaultRow()])} disabled={disabled} style={{ marginTop: 12 }} data-testid="add-row">
        Add Row
      </Button>
    </div>
  );
}
