import { App, Button, Card, Descriptions, Skeleton, Typography } from 'antd';
import { IdcardOutlined, LogoutOutlined } from '@ant-design/icons';
import { ApiError } from '../../api/http';
import { useAuth } from '../auth/AuthProvider';
import { useTierData } from '../shell/useTierData';

const MODULE_LABELS: Record<string, string> = { physical_risk: 'Physical Risk', transition_risk: 'Transition Risk', map: 'Map Module' };

/** Who is signed in, their company code (needed at login) and plan; signing out on every device. */
export function AccountCard() {
  const { user, signOutEverywhere } = useAuth();
  const { modal, message } = App.useApp();
  const tier = useTierData();
  const confirmSignOutEverywhere = () =>
    modal.confirm({
      title: 'Sign out everywhere?',
      content: 'Every session of your account ends: on this computer and on every other device or browser. You log in again with your password (and 2FA code).',
      okText: 'Sign out everywhere',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () =>
        signOutEverywhere().catch((err: unknown) => {
          void message.error(err instanceof ApiError && err.detail ? err.detail : 'Could not sign out everywhere. Try again.');
        }),
    });
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
      {user && (
        <div className="crp-card-actions">
          <Button icon={<LogoutOutlined />} onClick={confirmSignOutEverywhere}>
            Sign out everywhere
          </Button>
        </div>
      )}
    </Card>
  );
}
