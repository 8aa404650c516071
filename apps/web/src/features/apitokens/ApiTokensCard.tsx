import { useEffect, useRef, useState } from 'react';
import { Alert, App, Button, Card, Empty, Form, Input, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { ApiOutlined, CopyOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { API_TOKEN_EXPIRY_CHOICES, type ApiToken } from '@crp/contracts';
import { createApiToken, fetchApiTokens, revokeApiToken } from '../../api/accounts';
import { firstErrorMessage } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { copyText } from '../../lib/clipboard';

interface NewTokenValues {
  name: string;
  expires_in_days: number;
}

const day = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }) : 'Never');

/** The secret of a token just made: shown once, with a copy button that takes the focus. */
function NewTokenSecret({ name, token, onDone }: { name: string; token: string; onDone: () => void }) {
  const { message } = App.useApp();
  const copyRef = useRef<HTMLButtonElement>(null);
  useEffect(() => copyRef.current?.focus(), []);
  const copy = () => copyText(token).then(() => void message.success('Token copied'));
  return (
    <Alert
      type="success"
      showIcon
      className="crp-form-alert"
      data-testid="api-token-secret"
      title={`Token '${name}' made. Copy it now: it is not shown again.`}
      description={
        <Space direction="vertical" size="small" style={{ width: '100%' }}>
          <Typography.Text code className="crp-api-token-secret" style={{ wordBreak: 'break-all' }} aria-label="Your new API token">
            {token}
          </Typography.Text>
          <Space wrap>
            <Button ref={copyRef} type="primary" icon={<CopyOutlined />} onClick={() => void copy()}>
              Copy token
            </Button>
            <Button onClick={onDone}>Done, hide it</Button>
          </Space>
        </Space>
      }
    />
  );
}

/**
 * Personal API tokens for QGIS, GDAL and notebooks (issue 32): read-only, with an expiry, revocable. A company
 * administrator sees and revokes every member's tokens; others see their own.
 */
export function ApiTokensCard({ admin }: { admin: boolean }) {
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<NewTokenValues>();
  const [made, setMade] = useState<{ name: string; token: string } | null>(null);
  const scope = admin ? 'company' : 'mine';
  const tokens = useQuery({ queryKey: queryKeys.apiTokens(scope), queryFn: () => fetchApiTokens(scope) });
  const maxDays = tokens.data?.max_days ?? 365;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['api-tokens'] });

  const create = useMutation({
    mutationFn: (v: NewTokenValues) => createApiToken(v.name.trim(), v.expires_in_days),
    onSuccess: (res) => {
      setMade({ name: res.api_token.name, token: res.token });
      form.resetFields(['name']);
      void refresh();
    },
    onError: (err) => void message.error(firstErrorMessage(err, 'The token could not be made. Try again.')),
  });
  const revoke = useMutation({
    mutationFn: (id: number) => revokeApiToken(id),
    onSuccess: (res) => {
      void message.success(res.detail);
      void refresh();
    },
    onError: (err) => void message.error(firstErrorMessage(err, 'The token could not be revoked. Try again.')),
  });

  const choices = API_TOKEN_EXPIRY_CHOICES.filter((d) => d <= maxDays);
  return (
    <Card
      className="crp-card"
      data-testid="api-tokens-card"
      title={
        <span className="crp-card-title">
          <ApiOutlined /> API tokens
        </span>
      }
    >
      <p className="crp-muted">
        Read-only tokens for QGIS, GDAL and notebooks: send one as <Typography.Text code>Authorization: Token …</Typography.Text> or add{' '}
        <Typography.Text code>?token=…</Typography.Text> to a tile URL. They can read your data but change nothing, last until their expiry and do not sign you
        in. Revoke a token you no longer use.
      </p>
      {made && <NewTokenSecret name={made.name} token={made.token} onDone={() => setMade(null)} />}
      <Form<NewTokenValues>
        form={form}
        layout="inline"
        requiredMark={false}
        initialValues={{ expires_in_days: 90 }}
        onFinish={(v) => create.mutate(v)}
        aria-label="New API token"
        className="crp-api-token-form"
      >
        <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: 'Name the token, e.g. QGIS on my laptop' }]}>
          <Input maxLength={100} placeholder="QGIS on my laptop" style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="expires_in_days" label="Expires after">
          <Select
            aria-label="Expires after"
            style={{ width: 120 }}
            options={(choices.length ? choices : [maxDays]).map((d) => ({ value: d, label: `${d} days` }))}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" loading={create.isPending}>
            Create token
          </Button>
        </Form.Item>
      </Form>
      <Table<ApiToken>
        rowKey="id"
        size="middle"
        style={{ marginTop: 16 }}
        loading={tokens.isPending}
        dataSource={tokens.data?.tokens ?? []}
        pagination={(tokens.data?.tokens.length ?? 0) > 10 ? { pageSize: 10 } : false}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={tokens.isError ? 'Tokens could not be loaded' : 'No API tokens yet'} /> }}
        scroll={{ x: 640 }}
        columns={[
          {
            title: 'Name',
            key: 'name',
            render: (_, t) => (
              <Space direction="vertical" size={0}>
                <span className="crp-strong">{t.name}</span>
                <Typography.Text type="secondary" code className="crp-small">
                  {t.hint}…
                </Typography.Text>
              </Space>
            ),
          },
          ...(admin ? [{ title: 'User', key: 'user', render: (_: unknown, t: ApiToken) => t.user.username }] : []),
          { title: 'Created', key: 'created', render: (_, t) => day(t.created_at) },
          { title: 'Last used', key: 'last_used', render: (_, t) => day(t.last_used_at) },
          { title: 'Expires', key: 'expires', render: (_, t) => (t.expired ? <Tag color="default">Expired {day(t.expires_at)}</Tag> : day(t.expires_at)) },
          {
            title: '',
            key: 'actions',
            align: 'right',
            render: (_, t) => (
              <Popconfirm
                title={`Revoke '${t.name}'?`}
                description="Programs using it stop working at once."
                okText="Revoke"
                okButtonProps={{ danger: true }}
                cancelText="Cancel"
                onConfirm={() => revoke.mutateAsync(t.id)}
              >
                <Button size="small" danger aria-label={`Revoke ${t.name}`}>
                  Revoke
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}
