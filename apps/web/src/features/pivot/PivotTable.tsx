import { useMemo, useState, type DragEvent } from 'react';
import { Button, Checkbox, Dropdown, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import { DownloadOutlined, FilterOutlined, HolderOutlined } from '@ant-design/icons';
import * as XLSX from '@e965/xlsx';
import { METHODOLOGY_VERSION, safeCell } from '@crp/contracts';
import { saveBlob } from '../../lib/openFileLink';
import {
  AGGREGATORS,
  defaultConfig,
  label,
  numericFields,
  pivot,
  pivotGrid,
  rowHeads,
  rowLabels,
  shownScenarioYear,
  valuesOf,
  type Aggregator,
  type PivotConfig,
  type PivotPreference,
  type Row,
} from './pivot';
import './pivot.css';

type Zone = 'fields' | 'rows' | 'cols';
const ZONE_LABEL: Record<Zone, string> = { fields: 'Fields', rows: 'Rows', cols: 'Columns' };

const fmt = (v: number | null) => (v === null ? '' : v.toLocaleString('en-US', { maximumFractionDigits: Math.abs(v) >= 100 ? 0 : 2 }));

/**
 * An interactive pivot table over the CSV report rows: drag fields (or use each field's menu) to Rows and Columns,
 * choose Count, Sum, Average, Minimum or Maximum of a value field, filter values, export the result.
 */
export function PivotTable({ rows, fileName, prefer }: { rows: Row[]; fileName: string; prefer?: PivotPreference }) {
  const [config, setConfig] = useState<PivotConfig>(() => defaultConfig(rows, prefer));
  const [filtering, setFiltering] = useState<string | null>(null);
  const fields = useMemo(() => (rows.length ? Object.keys(rows[0]!) : []), [rows]);
  const numeric = useMemo(() => numericFields(rows), [rows]);
  const result = useMemo(() => pivot(rows, config), [rows, config]);
  const shown = useMemo(() => shownScenarioYear(rows, config), [rows, config]);
  const heads = rowHeads(config);
  const levels = Math.max(1, config.cols.length);
  const max = useMemo(() => Math.max(0, ...result.rowKeys.flatMap((r) => result.colKeys.map((c) => Math.abs(result.cell(r, c) ?? 0)))), [result]);

  const zoneOf = (f: string): Zone => (config.rows.includes(f) ? 'rows' : config.cols.includes(f) ? 'cols' : 'fields');
  const move = (f: string, to: Zone) =>
    setConfig((c) => {
      const rowsNext = c.rows.filter((x) => x !== f);
      const colsNext = c.cols.filter((x) => x !== f);
      if (to === 'rows') rowsNext.push(f);
      if (to === 'cols') colsNext.push(f);
      return { ...c, rows: rowsNext, cols: colsNext };
    });
  const drop = (to: Zone) => (e: DragEvent) => {
    e.preventDefault();
    const f = e.dataTransfer.getData('text/plain');
    if (fields.includes(f)) move(f, to);
  };

  const fieldTag = (f: string) => {
    const filtered = config.filters[f] !== undefined;
    const zone = zoneOf(f);
    return (
      <Dropdown
        key={f}
        trigger={['click']}
        menu={{
          items: [
            ...(['rows', 'cols', 'fields'] as const)
              .filter((z) => z !== zone)
              .map((z) => ({ key: z, label: z === 'fields' ? 'Remove from the table' : `Add to ${ZONE_LABEL[z]}` })),
            { key: 'filter', label: 'Filter values...', icon: <FilterOutlined /> },
          ],
          onClick: ({ key }) => (key === 'filter' ? setFiltering(f) : move(f, key as Zone)),
        }}
      >
        <Tag
          className={`crp-pivot-field${filtered ? ' crp-pivot-field-filtered' : ''}`}
          draggable
          onDragStart={(e) => e.dataTransfer.setData('text/plain', f)}
          data-testid="pivot-field"
          data-field={f}
          role="button"
          tabIndex={0}
          aria-label={`${f}${filtered ? ' (filtered)' : ''}: move or filter`}
        >
          <HolderOutlined /> {f} {filtered && <FilterOutlined />}
        </Tag>
      </Dropdown>
    );
  };

  const zone = (z: Zone, list: string[]) => (
    <div className="crp-pivot-zone" onDragOver={(e) => e.preventDefault()} onDrop={drop(z)} data-testid={`pivot-zone-${z}`} aria-label={ZONE_LABEL[z]}>
      <div className="crp-field-label">{ZONE_LABEL[z]}</div>
      <div className="crp-pivot-zone-body">{list.length ? list.map(fieldTag) : <span className="crp-muted">Drop fields here</span>}</div>
    </div>
  );

  const exportAs = (kind: 'csv' | 'xlsx') => {
    const ws = XLSX.utils.aoa_to_sheet(pivotGrid(result, config).map((r) => r.map(safeCell)));
    if (kind === 'csv') {
      saveBlob(new Blob([XLSX.utils.sheet_to_csv(ws)], { type: 'text/csv;charset=utf-8' }), `${fileName}.csv`);
      return;
    }
    const wb = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(wb, ws, 'Pivot');
    const about = [
      ['Pivot of', fileName],
      ['Methodology version', METHODOLOGY_VERSION],
      ['Data sources', 'Listed in the About sheet of the Download XLSX export and in Documents > Climate Methodology'],
      ['Aggregation', `${config.aggregator}${config.aggregator === 'Count' ? '' : ` of ${config.value}`}`],
      ['Rows', config.rows.join(', ')],
      ['Columns', config.cols.join(', ')],
      ...Object.entries(config.filters).map(([f, v]) => [`Filter ${f}`, v.join(', ')]),
    ];
    XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(about.map((r) => r.map(safeCell))), 'About');
    saveBlob(
      new Blob([XLSX.write(wb, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer], {
        type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      }),
      `${fileName}.xlsx`,
    );
  };

  const unused = fields.filter((f) => zoneOf(f) === 'fields');
  return (
    <div className="crp-pivot" data-testid="pivot">
      <div className="crp-pivot-controls">
        {zone('fields', unused)}
        {zone('rows', config.rows)}
        {zone('cols', config.cols)}
        <Space wrap className="crp-pivot-agg">
          <label className="crp-field-label" htmlFor="pivot-aggregator">
            Aggregation
          </label>
          <Select<Aggregator>
            id="pivot-aggregator"
            aria-label="Aggregation"
            value={config.aggregator}
            style={{ width: 130 }}
            options={AGGREGATORS.map((a) => ({ value: a, label: a }))}
            onChange={(aggregator) => setConfig((c) => ({ ...c, aggregator }))}
          />
          <span className="crp-muted">of</span>
          <Select<string>
            aria-label="Value field"
            value={config.value ?? undefined}
            placeholder="value field"
            disabled={config.aggregator === 'Count'}
            style={{ width: 260 }}
            options={numeric.map((f) => ({ value: f, label: f }))}
            onChange={(value) => setConfig((c) => ({ ...c, value }))}
          />
          <Button icon={<DownloadOutlined />} onClick={() => exportAs('csv')}>
            Export CSV
          </Button>
          <Button icon={<DownloadOutlined />} onClick={() => exportAs('xlsx')}>
            Export XLSX
          </Button>
        </Space>
      </div>
      <Typography.Paragraph className="crp-muted" data-testid="pivot-summary">
        {result.count.toLocaleString('en-US')} of {rows.length.toLocaleString('en-US')} rows · {config.aggregator}
        {config.aggregator === 'Count' ? '' : ` of ${config.value ?? '(choose a value field)'}`}
        {shown && (
          <>
            {' · '}
            <strong data-testid="pivot-scenario-year">{shown}</strong> (Filter values... on Scenario or Year shows others)
          </>
        )}
      </Typography.Paragraph>
      <div className="crp-pivot-scroll">
        <table className="crp-pivot-table" data-testid="pivot-table">
          <thead>
            {Array.from({ length: levels }, (_, i) => (
              <tr key={i}>
                {heads.map((f, j) => (
                  <th key={`h${j}`} className="crp-pivot-rowhead">
                    {i === levels - 1 ? f : ''}
                  </th>
                ))}
                {result.colKeys.map((c, k) => (
                  <th key={k}>{config.cols.length ? c[i] : config.aggregator}</th>
                ))}
                <th className="crp-pivot-total">{i === levels - 1 ? 'Total' : ''}</th>
              </tr>
            ))}
          </thead>
          <tbody>
            {result.rowKeys.map((r) => (
              <tr key={r.join('\u0001')}>
                {rowLabels(r, config).map((v, j) => (
                  <th key={j} scope="row" className="crp-pivot-rowhead">
                    {v}
                  </th>
                ))}
                {result.colKeys.map((c, k) => {
                  const v = result.cell(r, c);
                  const shade = v === null || max === 0 ? 0 : Math.abs(v) / max;
                  return (
                    <td key={k} style={{ background: shade ? `rgba(14,124,123,${(0.08 + 0.5 * shade).toFixed(3)})` : undefined }}>
                      {fmt(v)}
                    </td>
                  );
                })}
                <td className="crp-pivot-total">{fmt(result.rowTotal(r))}</td>
              </tr>
            ))}
            <tr className="crp-pivot-total">
              {heads.map((_, j) => (
                <th key={j} scope="row" className="crp-pivot-rowhead">
                  {j === 0 ? 'Total' : ''}
                </th>
              ))}
              {result.colKeys.map((c, k) => (
                <td key={k}>{fmt(result.colTotal(c))}</td>
              ))}
              <td data-testid="pivot-grand-total">{fmt(result.grandTotal)}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <FilterDialog
        key={filtering ?? ''}
        field={filtering}
        values={filtering ? valuesOf(rows, filtering) : []}
        kept={filtering ? config.filters[filtering] : undefined}
        onClose={() => setFiltering(null)}
        onApply={(f, kept) =>
          setConfig((c) => {
            const filters = { ...c.filters };
            if (kept === null) delete filters[f];
            else filters[f] = kept;
            return { ...c, filters };
          })
        }
      />
    </div>
  );
}

/** Choose the values of one field to keep; keeping them all removes the filter. */
function FilterDialog({
  field,
  values,
  kept,
  onClose,
  onApply,
}: {
  field: string | null;
  values: string[];
  kept: string[] | undefined;
  onClose: () => void;
  onApply: (field: string, kept: string[] | null) => void;
}) {
  const [chosen, setChosen] = useState<string[]>(() => kept ?? values);
  const [search, setSearch] = useState('');
  const shown = values.filter((v) => v.toLowerCase().includes(search.trim().toLowerCase()));
  return (
    <Modal
      title={field ? `Filter: ${field}` : 'Filter'}
      open={field !== null}
      onCancel={onClose}
      onOk={() => {
        if (field) onApply(field, chosen.length === values.length ? null : chosen);
        onClose();
      }}
      okText="Apply"
      okButtonProps={{ disabled: chosen.length === 0 }}
      destroyOnHidden
    >
      <Space className="crp-mb">
        <Input.Search placeholder="Search values" value={search} onChange={(e) => setSearch(e.target.value)} allowClear aria-label="Search values" />
        <Button size="small" onClick={() => setChosen(values)}>
          All
        </Button>
        <Button size="small" onClick={() => setChosen([])}>
          None
        </Button>
      </Space>
      <div className="crp-pivot-filter-list">
        <Checkbox.Group value={chosen} onChange={(v) => setChosen(v as string[])} options={shown.slice(0, 500).map((v) => ({ value: v, label: label(v) }))} />
        {shown.length > 500 && <div className="crp-muted">... {shown.length - 500} more: search to narrow the list</div>}
      </div>
    </Modal>
  );
}
