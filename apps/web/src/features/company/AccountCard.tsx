import { Card, Descriptions, Skeleton, Typography } from 'antd';
import { IdcardOutlined } from '@ant-design/icons';
import { useAuth } from '../auth/AuthProvider';
import { useTierData } from '../shell/useTierData';

const MODULE_LABELS: Record<string, string> = { physical_risk: 'Physical Risk', transition_risk: 'Transition Risk', map: 'Map Module' };

/** Who is signed in, their company code (needed at login) and plan. */
export function AccountCard() {
  const { user } = useAuth();
  const tier = useTierData();
  return (
    <Card
      className="crp-card"
      title={
        <span className="crp-card-title">
          <IdcardOutlined /> Account
        </span>
      }
    >
      {!user ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : (
        <Descriptions column={1} size="small" colon={false} className="crp-descriptions">
          <Descriptions.Item label="Name">{`${user.first_name} ${user.last_name}`.trim() || '-'}</Descriptions.Item>
          <Descriptions.Item label="Username">{user.username}</Descriptions.Item>
          <Descriptions.Item label="Email">{user.email}</Descriptions.Item>
          <Descriptions.Item label="Company">{user.company_name}</Descriptions.Item>
          <Descriptions.Item label="Company code">
            <Typography.Text copyable code>
              {user.company_code}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label="Plan">
            <div>
              <div className="crp-capitalize crp-strong">{tier?.tier ?? 'No plan'}</div>
              {tier && (
                <div className="crp-muted crp-small">
                  {tier.allowed_modules.map((m) => MODULE_LABELS[m] ?? m).join(', ') || 'No modules'} · up to{' '}
                  {tier.assets_allowed.toLocaleString('en-US')} assets
                </div>
              )}
            </div>
          </Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}
