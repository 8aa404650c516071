import { useMemo, useState } from 'react';
import { Alert, Button, Card, Col, Empty, List, Row, Space, Tag, Typography, Upload } from 'antd';
import { DeleteOutlined, InboxOutlined, PlusOutlined } from '@ant-design/icons';
import { isNA, parseAmount, type AssetFieldKey } from '@crp/contracts';
import { applyOptionalChoice, isAcceptedFile, parseAssetFile, rowProblems, type AssetRow, type ParsedUpload } from '../../lib/assetRows';
import { OptionalColumnsDialog } from '../../ui/OptionalColumnsDialog';
import type { SelectedProperty } from './useSelectedProperties';

type Candidate = Omit<SelectedProperty, 'id' | 'status'> & { key: string; problems: string[] };

function toCandidate(r: AssetRow): Candidate {
  const num = (v: string | undefined) => {
    const p = parseAmount(v);
    return 'error' in p || p.value === null ? NaN : p.value;
  };
  const extra: Record<string, string> = {};
  for (const [k, v] of Object.entries(r))
    if (k !== 'key' && k !== 'row' && k !== 'name' && k !== 'latitude' && k !== 'longitude' && k !== 'property_type' && typeof v === 'string')
      extra[k] = isNA(v) ? 'NA' : v;
  return {
    key: r.key,
    name: (r.name ?? '').trim(),
    latitude: num(r.latitude),
    longitude: num(r.longitude),
    property_type: isNA(r.property_type) ? 'NA' : (r.property_type ?? 'NA'),
    extra,
    source: 'csv',
    problems: rowProblems(r),
  };
}

/** Multiple Asset CSV tab: load a file, All Assets list, Selected Assets list, Add All, Clear All (spec 001 §2.5). */
export function CsvAssetPicker({
  selected,
  onAdd,
  onRemove,
  onClearAll,
}: {
  selected: SelectedProperty[];
  onAdd: (rows: Omit<SelectedProperty, 'id' | 'status'>[]) => number;
  onRemove: (id: string) => void;
  onClearAll: () => void;
}) {
  const [candidates, setCandidates] = useState<Candidate[]>([]);
  const [fileName, setFileName] = useState<string | null>(null);
  const [pending, setPending] = useState<ParsedUpload | null>(null);
  const [error, setError] = useState<string | null>(null);
  const chosen = useMemo(() => new Set(selected.map((s) => `${s.name.toLowerCase()}|${s.latitude}|${s.longitude}`)), [selected]);
  const isChosen = (c: Candidate) => chosen.has(`${c.name.toLowerCase()}|${c.latitude}|${c.longitude}`);
  const valid = candidates.filter((c) => c.problems.length === 0);

  const accept = (parsed: ParsedUpload, keep: AssetFieldKey[]) => setCandidates(applyOptionalChoice(parsed.rows, keep).map(toCandidate));

  const onFile = async (f: File) => {
    setError(null);
    if (!isAcceptedFile(f.name)) {
      setError(`'${f.name}' is not a supported file. Load a .csv, .xlsx or .xls file.`);
      return;
    }
    try {
      const parsed = await parseAssetFile(f);
      if (parsed.rows.length === 0) {
        setError(`'${f.name}' has no asset rows.`);
        return;
      }
      setFileName(f.name);
      if (parsed.optionalPresent.length > 0) setPending(parsed);
      else accept(parsed, []);
    } catch (err) {
      console.error('CSV could not be read', err);
      setError(`'${f.name}' could not be read: ${err instanceof Error ? err.message : 'unknown error'}.`);
    }
  };

  const strip = ({ key: _k, problems: _p, ...rest }: Candidate) => rest;

  return (
    <div data-testid="csv-picker">
      <Upload.Dragger
        accept=".csv,.xlsx,.xls"
        showUploadList={false}
        beforeUpload={(f) => {
          void onFile(f);
          return false;
        }}
        data-testid="csv-upload"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">
          {fileName ? `Loaded ${fileName}: drop another file to replace it` : 'Click or drop a CSV / XLSX file with your properties'}
        </p>
        <p className="ant-upload-hint">
          Columns: name, lat, long, revenue, construction cost, property type, area, valuation, floors, solar, wind, hydro, wheat, rice, maize, fruit, veg,
          ownership.
        </p>
      </Upload.Dragger>
      {error && <Alert type="error" showIcon message={error} className="crp-gap-top" />}
      <Row gutter={16} className="crp-gap-top">
        <Col xs={24} lg={12}>
          <Card
            size="small"
            title={`All Assets (${candidates.length})`}
            extra={
              <Button
                size="small"
                type="primary"
                icon={<PlusOutlined />}
                disabled={valid.every(isChosen)}
                onClick={() => onAdd(valid.filter((c) => !isChosen(c)).map(strip))}
              >
                Add All
              </Button>
            }
            data-testid="all-assets"
          >
            {candidates.length === 0 ? (
              <Empty description="Load a file to list its assets." image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <List
                size="small"
                dataSource={candidates}
                pagination={candidates.length > 8 ? { pageSize: 8, size: 'small' } : false}
                renderItem={(c) => (
                  <List.Item
                    actions={[
                      <Button
                        key="add"
                        size="small"
                        disabled={c.problems.length > 0 || isChosen(c)}
                        onClick={() => onAdd([strip(c)])}
                        aria-label={`Add ${c.name}`}
                      >
                        {isChosen(c) ? 'Added' : 'Add'}
                      </Button>,
                    ]}
                  >
                    <List.Item.Meta
                      title={<span title={c.name}>{c.name.length > 20 ? `${c.name.slice(0, 20)}...` : c.name || '(no name)'}</span>}
                      description={
                        c.problems.length ? (
                          <Typography.Text type="danger">{c.problems[0]}</Typography.Text>
                        ) : (
                          `${c.latitude.toFixed(5)}, ${c.longitude.toFixed(5)} · ${c.property_type}`
                        )
                      }
                    />
                  </List.Item>
                )}
              />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card
            size="small"
            title={`Selected Assets (${selected.length})`}
            extra={
              <Button size="small" danger icon={<DeleteOutlined />} disabled={selected.length === 0} onClick={onClearAll}>
                Clear All
              </Button>
            }
            data-testid="selected-assets"
          >
            {selected.length === 0 ? (
              <Empty description="No asset selected yet." image={Empty.PRESENTED_IMAGE_SIMPLE} />
            ) : (
              <List
                size="small"
                dataSource={selected}
                pagination={selected.length > 8 ? { pageSize: 8, size: 'small' } : false}
                renderItem={(s) => (
                  <List.Item
                    actions={[
                      <Button
                        key="rm"
                        size="small"
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={`Remove ${s.name}`}
                        onClick={() => onRemove(s.id)}
                      />,
                    ]}
                  >
                    <List.Item.Meta
                      title={
                        <Space size={6}>
                          <span title={s.name}>{s.name.length > 20 ? `${s.name.slice(0, 20)}...` : s.name || 'Loading...'}</span>
                          <Tag>{s.source === 'csv' ? 'CSV' : s.source === 'map' ? 'Map' : 'My Assets'}</Tag>
                        </Space>
                      }
                      description={`${s.latitude.toFixed(5)}, ${s.longitude.toFixed(5)}`}
                    />
                  </List.Item>
                )}
              />
            )}
          </Card>
        </Col>
      </Row>
      <OptionalColumnsDialog
        columns={pending?.optionalPresent ?? null}
        onConfirm={(keep) => {
          if (pending) accept(pending, keep);
          setPending(null);
        }}
        onCancel={() => {
          setPending(null);
          setFileName(null);
        }}
      />
    </div>
  );
}
