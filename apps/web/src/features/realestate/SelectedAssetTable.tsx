import { Button, Input, Select, Table, Tooltip } from 'antd';
import { DeleteOutlined } from '@ant-design/icons';
import { REAL_ESTATE_PROPERTY_TYPES } from './propertyTypes';
import type { SelectedProperty } from './useSelectedProperties';

/** The Selected Asset table: name (editable), property type, latitude and longitude (5 decimals) and Delete. */
export function SelectedAssetTable({
  items,
  onUpdate,
  onRemove,
  testId = 'selected-asset-table',
}: {
  items: SelectedProperty[];
  onUpdate: (id: string, patch: { name?: string; property_type?: string }) => void;
  onRemove: (id: string) => void;
  testId?: string;
}) {
  return (
    <Table<SelectedProperty>
      data-testid={testId}
      rowKey="id"
      size="small"
      dataSource={items}
      pagination={items.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
      scroll={{ x: 740 }}
      locale={{ emptyText: 'No asset selected yet.' }}
      columns={[
        { title: '#', key: 'i', width: 48, render: (_v, _r, i) => i + 1 },
        {
          title: 'Name',
          key: 'name',
          width: 220,
          render: (_v, r) =>
            r.status === 'loading' ? (
              <span className="crp-muted">Loading...</span>
            ) : (
              <Input
                size="small"
                value={r.name}
                maxLength={150}
                aria-label={`Name of asset ${r.name}`}
                status={r.name.trim() ? undefined : 'error'}
                onChange={(e) => onUpdate(r.id, { name: e.target.value })}
              />
            ),
        },
        {
          title: 'Property type',
          key: 'type',
          width: 170,
          render: (_v, r) => (
            <Select
              size="small"
              style={{ width: 160 }}
              value={r.property_type || undefined}
              placeholder="NA"
              aria-label="Property type"
              onChange={(v) => onUpdate(r.id, { property_type: v })}
              options={[...new Set([r.property_type, ...REAL_ESTATE_PROPERTY_TYPES])].filter((t) => t && t !== 'NA').map((t) => ({ value: t, label: t }))}
            />
          ),
        },
        { title: 'Latitude', dataIndex: 'latitude', width: 110, render: (v: number) => v.toFixed(5) },
        { title: 'Longitude', dataIndex: 'longitude', width: 110, render: (v: number) => v.toFixed(5) },
        {
          title: 'Delete',
          key: 'delete',
          width: 70,
          render: (_v, r) => (
            <Tooltip title="Remove">
              <Button type="text" danger icon={<DeleteOutlined />} aria-label={`Remove ${r.name || 'asset'}`} onClick={() => onRemove(r.id)} />
            </Tooltip>
          ),
        },
      ]}
    />
  );
}
