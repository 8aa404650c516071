import { App, Button, Card, Empty, Space, Table, Tag } from 'antd';
import { TeamOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CompanyMember } from '@crp/contracts';
import { decideCompanyMember, fetchCompanyMembers } from '../../api/accounts';
import { firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';

const STATUS_COLOR: Record<CompanyMember['status'], string> = { active: 'green', pending: 'gold', rejected: 'default' };
const ORDER: Record<CompanyMember['status'], number> = { pending: 0, active: 1, rejected: 2 };

/** Company admins approve or reject people who registered with the company code. */
export function CompanyMembersCard({ companyCode }: { companyCode?: string | undefined }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const members = useQuery({ queryKey: queryKeys.companyMembers, queryFn: fetchCompanyMembers });

  const decide = useMutation({
    mutationFn: ({ id, decision }: { id: number; decision: 'approve' | 'reject' }) => decideCompanyMember(id, decision),
    onSuccess: (res, v) => {
      void message.success(res.detail || (v.decision === 'approve' ? 'Member approved' : 'Request rejected'));
      void queryClient.invalidateQueries({ queryKey: queryKeys.companyMembers });
    },
    onError: (err) => void message.error(firstErrorMessage(err, 'The change could not be saved. Try again.')),
  });

  const rows = [...(members.data ?? [])].sort((a, b) => ORDER[a.status] - ORDER[b.status] || a.username.localeCompare(b.username));
  const pending = rows.filter((r) => r.status === 'pending').length;

  return (
    <Card
      className="crp-card"
      title={
        <span className="crp-card-title">
          <TeamOutlined /> Company members
        </span>
      }
      extra={pending > 0 ? <Tag color="gold">{pending} pending</Tag> : null}
    >
      <p className="crp-muted">
        Colleagues join by registering with your company code
        {companyCode ? (
          <>
            {' '}
            <strong>{companyCode}</strong>
          </>
        ) : null}
        . They can log in once you approve them.
      </p>
      <Table<CompanyMember>
        rowKey="id"
        size="middle"
        loading={members.isPending}
        dataSource={rows}
        pagination={rows.length > 10 ? { pageSize: 10 } : false}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={members.isError ? 'Members could not be loaded' : 'No members yet'} /> }}
        scroll={{ x: 640 }}
        columns={[
          {
            title: 'Name',
            key: 'name',
            width: '26%',
            render: (_, r) => (
              <div>
                <div className="crp-strong">{`${r.first_name} ${r.last_name}`.trim() || r.username}</div>
                <div className="crp-muted crp-small">{r.username}</div>
              </div>
            ),
          },
          { title: 'Email', dataIndex: 'email', key: 'email', ellipsis: true, width: '30%' },
          {
            title: 'Status',
            key: 'status',
            width: '16%',
            render: (_, r) => (
              <Space size={4}>
                <Tag color={STATUS_COLOR[r.status]}>{r.status}</Tag>
                {r.is_company_admin && <Tag color="blue">admin</Tag>}
              </Space>
            ),
          },
          { title: 'Since', dataIndex: 'created_at', key: 'created_at', width: '12%', render: (v: string) => (v ? v.slice(0, 10) : '') },
          {
            title: 'Actions',
            key: 'actions',
            align: 'right',
            render: (_, r) =>
              r.status === 'pending' ? (
                <Space>
                  <Button
                    size="small"
                    type="primary"
                    loading={decide.isPending && decide.variables?.id === r.id && decide.variables.decision === 'approve'}
                    onClick={() => decide.mutate({ id: r.id, decision: 'approve' })}
                  >
                    Approve
                  </Button>
                  <Button
                    size="small"
                    danger
                    loading={decide.isPending && decide.variables?.id === r.id && decide.variables.decision === 'reject'}
                    onClick={() => decide.mutate({ id: r.id, decision: 'reject' })}
                  >
                    Reject
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
    </Card>
  );
}
