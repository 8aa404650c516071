import { App, Button, Card, Popconfirm, Table, Tag, Typography } from 'antd';
import { RiseOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { fetchUpgradeRequests, grantUpgradeRequest, type UpgradeRequest } from '../../api/upgradeRequests';

const STATUS_COLOUR: Record<UpgradeRequest['status'], string> = { pending: 'gold', granted: 'green', declined: 'default' };

/**
 * Operators of the installation grant the companies' upgrade requests (issue 37 item 1); the same as
 * `npm run admin -- grant-tier --company CODE`. Shown on the setup page to operators only (the anchor
 * #upgrade-requests is the link of the operators' notification).
 */
export function UpgradeRequestsCard() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: queryKeys.upgradeRequests, queryFn: fetchUpgradeRequests });
  const grant = useMutation({
    mutationFn: grantUpgradeRequest,
    onSuccess: (r) => void message.success(r.detail),
    onError: (err: unknown) => void message.error(firstErrorMessage(err, 'The upgrade could not be granted.')),
    onSettled: () => void qc.invalidateQueries({ queryKey: queryKeys.upgradeRequests }),
  });
  const rows = list.data?.requests ?? [];
  const pending = rows.filter((r) => r.status === 'pending').length;
  return (
    <Card
      id="upgrade-requests"
      data-testid="upgrade-requests-card"
      title={
        <span>
          <RiseOutlined /> Upgrade requests (installation operators)
        </span>
      }
      extra={<Typography.Text type="secondary">{pending === 0 ? 'none pending' : `${pending} pending`}</Typography.Text>}
    >
      <Typography.Paragraph type="secondary">
        Companies ask for a higher plan from any locked panel; their administrators and the operators get a notification and an e-mail. Granting sets the plan
        asked for and tells every member of the company. On the server: <code>npm run admin -- grant-tier --company CODE</code>.
      </Typography.Paragraph>
      <Table<UpgradeRequest>
        size="small"
        rowKey="id"
        loading={list.isLoading}
        dataSource={rows}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: 'No upgrade requests yet' }}
        columns={[
          { title: 'Asked', dataIndex: 'created_at', render: (v: string) => v.slice(0, 16).replace('T', ' '), width: 140 },
          { title: 'Company', render: (_, r) => `${r.company_name} (${r.company_code})` },
          { title: 'By', dataIndex: 'requested_by', render: (v: string | null) => v ?? '—', width: 140 },
          { title: 'Plan', render: (_, r) => `${r.tier_from} → ${r.tier}`, width: 170 },
          { title: 'Note', dataIndex: 'message', render: (v: string) => v || '—' },
          {
            title: 'Status',
            width: 200,
            render: (_, r) =>
              r.status === 'pending' ? (
                <Popconfirm title={`Grant ${r.company_name} the ${r.tier} plan?`} okText="Grant" onConfirm={() => grant.mutate(r.id)}>
                  <Button type="primary" size="small" loading={grant.isPending && grant.variables === r.id} data-testid="grant-upgrade">
                    Grant {r.tier}
                  </Button>
                </Popconfirm>
              ) : (
                <span>
                  <Tag color={STATUS_COLOUR[r.status]}>{r.status}</Tag>
                  {r.decided_by ? `by ${r.decided_by}` : ''}
                </span>
              ),
          },
        ]}
      />
    </Card>
  );
}
