import { Alert, App, Button, Card, Descriptions, Form, Input, Popconfirm, Switch, Tag, Typography } from 'antd';
import { GlobalOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { clearBasemapSettings, fetchBasemapSettings, saveBasemapSettings, type BasemapSettingsAnswer } from '../../api/basemapSettings';
import { ApiError } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';
import { loadClientConfig } from '../../lib/clientConfig';

const SOURCE_LABEL: Record<BasemapSettingsAnswer['source'], string> = {
  settings: 'set here',
  environment: 'server environment (BASEMAP_STYLE_URL / BASEMAP_PMTILES)',
  offline: 'offline basemap only (coastline and water, no streets)',
};

type Values = { pmtiles: string; style_url: string; labels: boolean };

/**
 * Operators set the street basemap of every map of the installation (docs/maps.md "Basemap"): an OpenStreetMap
 * archive in PMTiles format (a file on the server or an http(s) URL) drawn with street and place names, or a
 * MapLibre style URL. Stored in the database; the server environment is the default when nothing is set here.
 */
export function StreetBasemapCard() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const q = useQuery({ queryKey: queryKeys.basemapSettings, queryFn: fetchBasemapSettings, retry: false });
  useEffect(() => {
    const s = q.data?.settings;
    form.setFieldsValue({ pmtiles: s?.pmtiles ?? '', style_url: s?.style_url ?? '', labels: s?.labels ?? true });
  }, [q.data, form]);
  const applied = async (r: BasemapSettingsAnswer, text: string) => {
    qc.setQueryData(queryKeys.basemapSettings, r);
    await loadClientConfig(); // maps opened from now on draw the new basemap
    void message.success(text);
  };
  const save = useMutation({
    mutationFn: (v: Values) => saveBasemapSettings({ pmtiles: v.pmtiles.trim() || null, style_url: v.style_url.trim() || null, labels: v.labels }),
    onSuccess: (r) => {
      setRefusal(null);
      void applied(r, 'Street basemap saved: every map opened from now on draws it.');
    },
    onError: (err: unknown) =>
      setRefusal(err instanceof ApiError ? err.errors.map((e) => e.message).join(' ') || err.detail || err.message : 'Saving failed. Try again.'),
  });
  const clear = useMutation({ mutationFn: clearBasemapSettings, onSuccess: (r) => void applied(r, 'Setting removed: the server default applies.') });
  if (q.error instanceof ApiError && q.error.status === 403) return null;
  const d = q.data;

  return (
    <Card
      data-testid="street-basemap-card"
      title={
        <span>
          <GlobalOutlined /> Street basemap (installation operators)
        </span>
      }
    >
      <Typography.Paragraph type="secondary">
        Without a street basemap the maps show the offline coastline and water (GSHHG, about 100 m) and no streets. Give an OpenStreetMap extract in PMTiles
        format, a file on the server (for example one made with <code>pmtiles extract</code> for your region; see the Maps documentation) or an https URL, and
        every map of every company draws its water, roads and buildings with street and place names. A MapLibre style URL replaces the street style instead.
      </Typography.Paragraph>
      {d && (
        <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
          <Descriptions.Item label="In force">
            <Tag color={d.source === 'offline' ? 'default' : 'blue'} data-testid="basemap-source">
              {SOURCE_LABEL[d.source]}
            </Tag>
            {d.settings && `${d.settings.updated_at.slice(0, 10)} by ${d.settings.updated_by}`}
          </Descriptions.Item>
          {(d.environment.pmtiles || d.environment.style_url) && (
            <Descriptions.Item label="Server default">
              <code>{d.environment.pmtiles ?? d.environment.style_url}</code>
            </Descriptions.Item>
          )}
        </Descriptions>
      )}
      <Form form={form} layout="vertical" onFinish={(v) => save.mutate(v)} initialValues={{ pmtiles: '', style_url: '', labels: true }}>
        <Form.Item name="pmtiles" label="OpenStreetMap archive (.pmtiles file on the server, or https URL)">
          <Input placeholder="/srv/tiles/hong-kong.pmtiles" aria-label="PMTiles archive" maxLength={2000} />
        </Form.Item>
        <Form.Item name="labels" label="Street and place names" valuePropName="checked">
          <Switch aria-label="Street and place names" />
        </Form.Item>
        <Form.Item name="style_url" label="Or a MapLibre style URL (replaces the street style)">
          <Input placeholder="https://tiles.example.org/styles/street.json" aria-label="Style URL" maxLength={2000} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="basemap-save">
          Save
        </Button>{' '}
        {d?.settings && (
          <Popconfirm title="Remove the street basemap set here? The server default applies." onConfirm={() => clear.mutate()}>
            <Button loading={clear.isPending} data-testid="basemap-clear">
              Remove
            </Button>
          </Popconfirm>
        )}
      </Form>
      {refusal && (
        <Alert
          style={{ marginTop: 12 }}
          type="error"
          showIcon
          closable
          onClose={() => setRefusal(null)}
          title="Not saved"
          description={refusal}
          data-testid="basemap-refusal"
        />
      )}
    </Card>
  );
}
