import { useMemo } from 'react';
import { Input, Table, Tooltip } from 'antd';
import { WarningOutlined } from '@ant-design/icons';
import { ASSET_FIELDS, type AssetFieldKey } from '@crp/contracts';
import { rowProblems, type AssetRow } from '../../lib/assetRows';

/** The upload preview (page size 10); in edit mode every cell is an input writing into `onEdit`. */
export function AssetPreviewTable({
  rows,
  columns,
  editing,
  onEdit,
  testId = 'preview-table',
  totalText = (t: number) => `${t} assets`,
}: {
  rows: AssetRow[];
  columns: AssetFieldKey[];
  editing?: boolean;
  onEdit?: (key: string, field: AssetFieldKey, value: string) => void;
  testId?: string;
  /** The pager's total ("5 assets"); a large upload's preview says "first 100 of N rows". */
  totalText?: (total: number) => string;
}) {
  const problems = useMemo(() => new Map(rows.map((r) => [r.key, rowProblems(r)])), [rows]);
  // Numbered as the server numbers the submitted list (1 = first asset), so its "Row n" errors point here.
  const position = useMemo(() => new Map(rows.map((r, i) => [r.key, i + 1])), [rows]);
  const fields = ASSET_FIELDS.filter((f) => columns.includes(f.key));
  return (
    <Table<AssetRow>
      rowKey="key"
      size="small"
      dataSource={rows}
      pagination={{ pageSize: 10, showSizeChanger: false, showTotal: totalText }}
      scroll={{ x: 'max-content' }}
      data-testid={testId}
      rowClassName={(r) => ((problems.get(r.key)?.length ?? 0) > 0 ? 'crp-row-problem' : '')}
      columns={[
        {
          title: 'Row',
          key: 'position',
          width: 64,
          fixed: 'left',
          render: (_: unknown, r) => {
            const p = problems.get(r.key) ?? [];
            const n = position.get(r.key);
            return p.length ? (
              <Tooltip title={`${p.join('; ')} (spreadsheet row ${r.row})`}>
                <span className="crp-danger">
                  <WarningOutlined /> {n}
                </span>
              </Tooltip>
            ) : (
              <span title={`Spreadsheet row ${r.row}`}>{n}</span>
            );
          },
        },
        ...fields.map((f) => ({
          title: 'unit' in f && f.unit ? `${f.label} (${f.unit})` : f.label,
          dataIndex: f.key,
          key: f.key,
          render: (v: string | undefined, r: AssetRow) =>
            editing ? (
              <Input
                size="small"
                value={v ?? ''}
                onChange={(e) => onEdit?.(r.key, f.key, e.target.value)}
                aria-label={`${f.label}, row ${position.get(r.key)}`}
                className="crp-cell-input"
              />
            ) : (
              v || <span className="crp-muted">NA</span>
            ),
        })),
      ]}
    />
  );
}
