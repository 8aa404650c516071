import { Alert, App, Button, Card, Form, Input, Popconfirm, Table, Tag, Typography } from 'antd';
import { DatabaseOutlined, DeleteOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchPublishedDatasets, registerPublishedDataset, removePublishedDataset, type PublishedDataset } from '../../api/publishedDatasets';
import { ApiError } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';

const size = (b: number) =>
  b >= 1024 ** 3 ? `${(b / 1024 ** 3).toFixed(2)} GB` : b >= 1024 ** 2 ? `${(b / 1024 ** 2).toFixed(1)} MB` : `${Math.max(1, Math.round(b / 1024))} KB`;
const HAZARD_LABEL: Record<string, string> = { river_flood: 'River flood', storm_surge: 'Coastal flood' };

/**
 * Operators of the installation register published flood maps (WRI Aqueduct Floods, JRC) from a server-side
 * directory, for every company's analyses (issue 34 item 2). The server decides who is an operator: for anyone else
 * the list answers 403 and the card is not shown.
 */
export function PublishedDatasetsCard() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<{ directory: string; name?: string }>();
  const [refusal, setRefusal] = useState<string[] | null>(null);
  const list = useQuery({ queryKey: queryKeys.publishedDatasets, queryFn: fetchPublishedDatasets, retry: false });
  const changed = () => {
    void qc.invalidateQueries({ queryKey: queryKeys.publishedDatasets });
    void qc.invalidateQueries({ queryKey: queryKeys.projects });
  };
  const register = useMutation({
    mutationFn: registerPublishedDataset,
    onSuccess: (r) => {
      setRefusal(null);
      form.resetFields();
      void message.success(r.detail);
      changed();
    },
    onError: (err: unknown) => {
      if (err instanceof ApiError) {
        setRefusal(err.errors.length ? err.errors.map((e) => e.message) : [err.detail ?? err.message]);
      } else setRefusal(['The registration failed. Try again.']);
    },
  });
  const remove = useMutation({
    mutationFn: removePublishedDataset,
    onSuccess: (r) => {
      void message.success(r.detail);
      changed();
    },
    onError: (err: unknown) => void message.error(err instanceof ApiError && err.detail ? err.detail : 'Could not remove the dataset.'),
  });
  if (list.error instanceof ApiError && list.error.status === 403) return null;

  return (
    <Card
      data-testid="published-datasets-card"
      title={
        <span>
          <DatabaseOutlined /> Published flood maps (installation operators)
        </span>
      }
    >
      <Typography.Paragraph type="secondary">
        Register a directory on the server holding WRI Aqueduct Floods or JRC global flood maps, named as published (for example{' '}
        <code>inunriver_rcp8p5_00000NorESM1-M_2050_rp00100.tif</code>, <code>inuncoast_historical_nosub_hist_rp0100_0.tif</code>,{' '}
        <code>floodMapGL_rp100y.tif</code>). Each file's name and header are checked (GeoTIFF, EPSG:4326, tiles or strips); the files are read where assets
        fall, never copied, so the directory must stay readable by every server and worker. Where the maps cover an asset, their river and coastal flood depths
        replace the built-in layers for every company (data tier “published dataset”; a company's own layer still comes first), and every portfolio is
        re-analysed.
      </Typography.Paragraph>
      <Form form={form} layout="inline" onFinish={(v) => register.mutate({ directory: v.directory, ...(v.name ? { name: v.name } : {}) })}>
        <Form.Item name="directory" rules={[{ required: true, message: 'The directory on the server' }]}>
          <Input placeholder="/data/aqueduct-floods-v2" style={{ width: 320 }} aria-label="Directory on the server" />
        </Form.Item>
        <Form.Item name="name">
          <Input placeholder="Name (default: the directory's)" style={{ width: 220 }} aria-label="Dataset name" maxLength={100} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={register.isPending} data-testid="published-register">
          Register
        </Button>
      </Form>
      {refusal && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          closable
          onClose={() => setRefusal(null)}
          title="Nothing was registered"
          description={
            <ul style={{ margin: 0, paddingLeft: 18 }}>
              {refusal.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          }
          data-testid="published-refusal"
        />
      )}
      <Table<PublishedDataset>
        style={{ marginTop: 16 }}
        size="small"
        rowKey="id"
        loading={list.isLoading}
        dataSource={list.data?.datasets ?? []}
        pagination={false}
        locale={{ emptyText: 'No published dataset registered: river and coastal flood use the built-in screening layers.' }}
        columns={[
          { title: 'Name', dataIndex: 'name' },
          { title: 'Directory', dataIndex: 'directory', render: (d: string) => <code>{d}</code> },
          { title: 'Hazards', dataIndex: 'hazards', render: (hs: string[]) => hs.map((h) => <Tag key={h}>{HAZARD_LABEL[h] ?? h}</Tag>) },
          { title: 'Scenarios', dataIndex: 'scenarios', render: (s: string[]) => s.join(', ') },
          { title: 'Return periods (y)', dataIndex: 'return_periods_years', render: (r: number[]) => r.join(', ') },
          { title: 'Files', dataIndex: 'file_count' },
          { title: 'Size', dataIndex: 'bytes', render: (b: number) => size(b) },
          { title: 'Registered', dataIndex: 'registered_at', render: (t: string, r) => `${t.slice(0, 10)} by ${r.registered_by}` },
          {
            title: '',
            key: 'remove',
            render: (_: unknown, r) => (
              <Popconfirm title={`Remove '${r.name}'? Every portfolio is re-analysed without it.`} onConfirm={() => remove.mutate(r.name)}>
                <Button size="small" danger icon={<DeleteOutlined />} aria-label={`Remove ${r.name}`} />
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}
