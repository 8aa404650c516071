import { useEffect, useState } from 'react';
import { App, Button, Card, Descriptions, InputNumber, Skeleton, Space, Typography } from 'antd';
import { fetchDownloadLinkHours, setDownloadLinkHours } from '../../api/accounts';
import { IdcardOutlined, LogoutOutlined } from '@ant-design/icons';
import { DOWNLOAD_LINK_HOURS_MAX, DOWNLOAD_LINK_HOURS_MIN } from '@crp/contracts';
import { ApiError } from '../../api/http';
import { useAuth } from '../../lib/AuthProvider';
import { useTierData } from '../../lib/useTierData';

const MODULE_LABELS: Record<string, string> = { physical_risk: 'Physical Risk', transition_risk: 'Transition Risk', map: 'Map Module' };

/**
 * Download links (exports, reports) are bearer links: a company administrator may shorten how long new ones last
 * (1-24 hours); members see the setting.
 */
function DownloadLinkHours({ admin }: { admin: boolean }) {
  const { message } = App.useApp();
  const [hours, setHours] = useState<number | null>(null);
  const [saved, setSaved] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void fetchDownloadLinkHours().then(
      (r) => {
        setHours(r.download_link_hours);
        setSaved(r.download_link_hours);
      },
      () => undefined,
    );
  }, []);
  if (saved === null) return null;
  if (!admin) return <>{saved} hours</>;
  const save = () => {
    if (hours === null) return;
    setBusy(true);
    setDownloadLinkHours(hours)
      .then(
        (r) => {
          setSaved(r.download_link_hours);
          void message.success(`New download links last ${r.download_link_hours} hours.`);
        },
        (err: unknown) => void message.error(err instanceof ApiError && err.detail ? err.detail : 'Could not save. Try again.'),
      )
      .finally(() => setBusy(false));
  };
  return (
    <Space size="small" wrap>
      <InputNumber
        aria-label="Download links last (hours)"
        min={DOWNLOAD_LINK_HOURS_MIN}
        max={DOWNLOAD_LINK_HOURS_MAX}
        precision={0}
        value={hours}
        onChange={(v) => setHours(v)}
        onPressEnter={save}
        data-testid="download-link-hours"
        style={{ width: 80 }}
      />
      <span>hours</span>
      <Button size="small" onClick={save} loading={busy} disabled={hours === saved || hours === null}>
        Save
      </Button>
    </Space>
  );
}

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
          <Descriptions.Item label="Download links last">
            <DownloadLinkHours admin={user.is_company_admin} />
          </Descriptions.Item>
          <Descriptions.Item label="Plan">
            <div>
              <div className="crp-capitalize crp-strong">{tier?.tier ?? 'No plan'}</div>
              {tier && (
                <div className="crp-muted crp-small">
                  {tier.allowed_modules.map((m) => MODULE_LABELS[m] ?? m).join(', ') || 'No modules'} · up to {tier.assets_allowed.toLocaleString('en-US')}{' '}
                  assets
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
