import { Card, Empty, Select, Space, Table, Tag, Tooltip } from 'antd';
import { HistoryOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AUDIT_ACTION_GROUPS, type AuditLogEntry } from '@crp/contracts';
import { fetchAuditLog } from '../../api/accounts';
import { queryKeys } from '../../api/queryKeys';

const PERIODS = [
  { value: 'all', label: 'All time' },
  { value: '1', label: 'Last 24 hours' },
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
];

/** Colour of an action's tag: failures red, sign-ins blue, deletions orange. */
function tagColour(action: string): string {
  if (action.endsWith('failed') || action.endsWith('rejected')) return 'red';
  if (action.startsWith('login') || action === 'logout') return 'blue';
  if (action.endsWith('deleted') || action.endsWith('overwrite') || action.endsWith('overwritten')) return 'orange';
  return 'default';
}

/** What a detail object says, in a short line (project ids, counts, plan changes). */
function describe(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([k, v]) => `${k.replace(/_/g, ' ')}: ${Array.isArray(v) ? v.join(', ') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)}`)
    .join('; ');
}

/** Company admins see who did what in their company: logins, shares, deletions, plan changes (audit trail). */
export function ActivityLogCard() {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [action, setAction] = useState<string | undefined>(undefined);
  const [period, setPeriod] = useState('all');
  const from = period === 'all' ? undefined : new Date(Date.now() - Number(period) * 86_400_000).toISOString().slice(0, 16) + ':00Z';
  const params = { page, page_size: pageSize, action, from: period === 'all' ? undefined : period };
  const log = useQuery({
    queryKey: queryKeys.auditLog(params),
    queryFn: () => fetchAuditLog({ page, page_size: pageSize, action, from }),
    placeholderData: keepPreviousData,
  });

  return (
    <Card
      className="crp-card"
      data-testid="activity-log"
      title={
        <span className="crp-card-title">
          <HistoryOutlined /> Activity log
        </span>
      }
      extra={
        <Space wrap>
          <Select
            aria-label="Action"
            data-testid="activity-action"
            allowClear
            placeholder="All actions"
            style={{ minWidth: 200 }}
            value={action}
            onChange={(v: string | undefined) => {
              setAction(v);
              setPage(1);
            }}
            options={Object.entries(AUDIT_ACTION_GROUPS).map(([value, label]) => ({ value, label }))}
          />
          <Select
            aria-label="Period"
            style={{ minWidth: 150 }}
            value={period}
            onChange={(v: string) => {
              setPeriod(v);
              setPage(1);
            }}
            options={PERIODS}
          />
        </Space>
      }
    >
      <p className="crp-muted">Sign-ins, membership decisions, shared and deleted projects and plan changes in your company, newest first.</p>
      <Table<AuditLogEntry>
        rowKey="id"
        size="middle"
        loading={log.isFetching}
        dataSource={log.data?.results ?? []}
        pagination={{
          current: page,
          pageSize,
          total: log.data?.total ?? 0,
          showSizeChanger: true,
          pageSizeOptions: [10, 20, 50],
          showTotal: (t) => `${t} ${t === 1 ? 'entry' : 'entries'}`,
          onChange: (p, size) => {
            setPage(size !== pageSize ? 1 : p);
            setPageSize(size);
          },
        }}
        locale={{
          emptyText: (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={log.isError ? 'The activity log could not be loaded' : 'No activity in this period'} />
          ),
        }}
        scroll={{ x: 720 }}
        columns={[
          { title: 'Time', dataIndex: 'time', key: 'time', width: 170, render: (v: string) => <Tooltip title={v}>{new Date(v).toLocaleString()}</Tooltip> },
          {
            title: 'User',
            key: 'user',
            width: 200,
            render: (_, r) =>
              r.user ? (
                <div>
                  <div className="crp-strong">{r.user.name}</div>
                  <div className="crp-muted crp-small">{r.user.username}</div>
                </div>
              ) : (
                <span className="crp-muted">Operator</span>
              ),
          },
          {
            title: 'Action',
            key: 'action',
            width: 260,
            render: (_, r) => (
              <Tooltip title={r.action}>
                <Tag color={tagColour(r.action)}>{r.action_label}</Tag>
              </Tooltip>
            ),
          },
          { title: 'Detail', key: 'detail', ellipsis: true, render: (_, r) => describe(r.detail) },
          { title: 'Client', dataIndex: 'client', key: 'client', width: 130, render: (v: string | null) => v ?? '' },
        ]}
      />
    </Card>
  );
}
