import { Alert, App, Button, Card, Col, Form, Input, Popconfirm, Row, Select, Table, Tag, Typography, Upload } from 'antd';
import { DeleteOutlined, GlobalOutlined, UploadOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  HAZARDS,
  HAZARD_INDICATORS,
  HAZARD_RETURN_PERIODS_YEARS,
  OWN_LAYER_LABEL_MAX_LENGTH,
  OWN_LAYER_SOURCE_MAX_LENGTH,
  SCENARIO_LABELS,
  SCENARIOS,
  type HazardKey,
} from '@crp/contracts';
import { deleteOwnLayer, fetchOwnLayers, uploadOwnLayer, type OwnLayer } from '../../api/ownLayers';
import { ApiError } from '../../api/http';
import { queryKeys } from '../../api/queryKeys';

const YEARS = [2020, 2030, 2040, 2050, 2060, 2070, 2080, 2090, 2100];
const labelOf = (h: string) => HAZARDS.find((x) => x.key === h)?.label ?? h;
const mb = (b: number) => (b < 1024 * 1024 ? `${Math.max(1, Math.round(b / 1024))} KB` : `${(b / 1024 / 1024).toFixed(1)} MB`);

interface FormValues {
  hazard?: HazardKey;
  scenario: string;
  year: string;
  return_period_years?: string;
  unit?: string;
  band?: string;
  variable?: string;
  label?: string;
  source?: string;
}

/**
 * Company administrators upload their own hazard layers (GeoTIFF or NetCDF; a band or variable of their choice) for a hazard, scenario, year and return period,
 * see them listed and delete them (issue 23 item 3). The server checks each file; its refusal is shown as it says it.
 */
export function OwnLayersCard() {
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const [file, setFile] = useState<File | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const list = useQuery({ queryKey: queryKeys.ownLayers, queryFn: fetchOwnLayers });
  const hazard = Form.useWatch('hazard', form);
  const curve = hazard ? HAZARD_INDICATORS[hazard].curve : false;

  const upload = useMutation({
    mutationFn: async (v: FormValues) =>
      uploadOwnLayer({
        hazard: v.hazard ?? '',
        scenario: v.scenario,
        year: v.year,
        return_period_years: v.return_period_years ?? '',
        unit: v.unit ?? '',
        band: v.band ?? '',
        variable: v.variable ?? '',
        label: v.label ?? '',
        source: v.source ?? '',
        file: file!,
      }),
    onSuccess: (r) => {
      setRefusal(null);
      setFile(null);
      form.resetFields();
      void message.success(r.detail);
      void qc.invalidateQueries({ queryKey: queryKeys.ownLayers });
      void qc.invalidateQueries({ queryKey: queryKeys.projects });
    },
    onError: (err: unknown) => setRefusal(err instanceof ApiError ? (err.detail ?? err.message) : 'The upload failed. Try again.'),
  });
  const remove = useMutation({
    mutationFn: (id: number) => deleteOwnLayer(id),
    onSuccess: (r) => {
      void message.success(r.detail);
      void qc.invalidateQueries({ queryKey: queryKeys.ownLayers });
      void qc.invalidateQueries({ queryKey: queryKeys.projects });
    },
    onError: (err: unknown) => void message.error(err instanceof ApiError && err.detail ? err.detail : 'Could not delete the layer.'),
  });

  const units = hazard ? (list.data?.units[hazard] ?? [HAZARD_INDICATORS[hazard].unit]) : [];
  const range = hazard ? list.data?.ranges[hazard] : undefined;
  const limits = list.data?.limits;

  return (
    <Card
      className="crp-card"
      data-testid="own-layers"
      title={
        <span className="crp-card-title">
          <GlobalOutlined /> Own hazard layers
        </span>
      }
    >
      <Typography.Paragraph className="crp-muted">
        Upload your own hazard maps (GeoTIFF, Cloud-Optimized GeoTIFF or CF NetCDF, in any projected or geographic CRS of the EPSG registry, e.g. EPSG:4326,
        3857, 2326 or 27700). Where a layer covers an asset, its value replaces ours in your company's analyses only, marked <Tag color="purple">own data</Tag>{' '}
        in the dashboard, exports and reports. Your portfolios are re-analysed after each change.
        {limits && ` Up to ${limits.max_layers} layers of at most ${mb(limits.max_bytes)} and ${limits.max_pixels.toLocaleString('en-US')} pixels each.`}
        {limits && ` Decoded, your layers take ${mb(limits.company_used_bytes)} of your company's ${mb(limits.company_budget_bytes)} (4 bytes per pixel).`}
      </Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ scenario: 'any', year: 'any' }}
        onFinish={(v) => {
          if (!file) {
            setRefusal('Choose a GeoTIFF or NetCDF file to upload.');
            return;
          }
          upload.mutate(v);
        }}
        data-testid="own-layer-form"
      >
        <Row gutter={16}>
          <Col xs={24} md={6}>
            <Form.Item name="hazard" label="Hazard" rules={[{ required: true, message: 'Choose the hazard of the layer' }]}>
              <Select
                aria-label="Hazard"
                data-testid="own-layer-hazard"
                placeholder="Choose a hazard"
                options={HAZARDS.map((h) => ({ value: h.key, label: h.label }))}
                onChange={(h: HazardKey) =>
                  form.setFieldsValue({ unit: HAZARD_INDICATORS[h].unit, return_period_years: HAZARD_INDICATORS[h].curve ? '100' : undefined })
                }
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="scenario" label="Scenario">
              <Select
                aria-label="Scenario"
                data-testid="own-layer-scenario"
                options={[
                  { value: 'any', label: 'Every scenario' },
                  ...SCENARIOS.map((s) => ({ value: s, label: `${SCENARIO_LABELS.ssp[s]} / ${SCENARIO_LABELS.rcp[s]}` })),
                ]}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="year" label="Year" tooltip="The layer of the nearest year is used for each analysed year.">
              <Select
                aria-label="Year"
                data-testid="own-layer-year"
                options={[{ value: 'any', label: 'Every year' }, ...YEARS.map((y) => ({ value: String(y), label: String(y) }))]}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="return_period_years"
              label="Return period (years)"
              tooltip="Flood, surge and typhoon layers are read as return-period curves: one layer per return period."
              rules={[{ required: curve, message: 'This hazard needs the return period of the layer' }]}
            >
              <Select
                aria-label="Return period"
                data-testid="own-layer-rp"
                disabled={!curve}
                placeholder={curve ? 'Choose' : 'Not used for this hazard'}
                options={HAZARD_RETURN_PERIODS_YEARS.map((r) => ({ value: String(r), label: `1 in ${r}` }))}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item
              name="unit"
              label="Unit of the values"
              extra={range && hazard ? `plausible: ${range[0]} to ${range[1]} ${HAZARD_INDICATORS[hazard].unit}` : undefined}
            >
              <Select aria-label="Unit" data-testid="own-layer-unit" disabled={!hazard} options={units.map((u) => ({ value: u, label: u }))} />
            </Form.Item>
          </Col>
          <Col xs={12} md={3}>
            <Form.Item
              name="band"
              label="Band"
              tooltip="The band read from a multi-band GeoTIFF, or the slice (e.g. the time step) of a NetCDF variable; 1 when empty."
              rules={[{ pattern: /^[1-9][0-9]*$/, message: 'A whole number from 1' }]}
            >
              <Input aria-label="Band" data-testid="own-layer-band" inputMode="numeric" placeholder="1" maxLength={6} />
            </Form.Item>
          </Col>
          <Col xs={12} md={5}>
            <Form.Item
              name="variable"
              label="NetCDF variable"
              tooltip="Only for NetCDF files with more than one variable on a latitude/longitude grid, e.g. inun or depth."
            >
              <Input aria-label="NetCDF variable" data-testid="own-layer-variable" maxLength={100} placeholder="the only one" />
            </Form.Item>
          </Col>
          <Col xs={24} md={10}>
            <Form.Item name="label" label="Name">
              <Input data-testid="own-layer-label" maxLength={OWN_LAYER_LABEL_MAX_LENGTH} placeholder="e.g. Flood study 2026, 1-in-100" />
            </Form.Item>
          </Col>
          <Col xs={24} md={24}>
            <Form.Item name="source" label="Source and licence">
              <Input data-testid="own-layer-source" maxLength={OWN_LAYER_SOURCE_MAX_LENGTH} placeholder="publisher, licence or citation" />
            </Form.Item>
          </Col>
        </Row>
        <div className="crp-card-actions" style={{ justifyContent: 'flex-start', gap: 12, display: 'flex', flexWrap: 'wrap' }}>
          <Upload
            accept=".tif,.tiff,.nc,.nc4,.cdf,image/tiff,application/x-netcdf"
            maxCount={1}
            beforeUpload={(f) => {
              setFile(f);
              setRefusal(null);
              return false;
            }}
            onRemove={() => setFile(null)}
            fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
          >
            <Button icon={<UploadOutlined />} data-testid="own-layer-file">
              Choose GeoTIFF or NetCDF
            </Button>
          </Upload>
          <Button type="primary" htmlType="submit" loading={upload.isPending} data-testid="own-layer-submit">
            Upload layer
          </Button>
        </div>
      </Form>
      {refusal && (
        <Alert
          style={{ marginTop: 16 }}
          type="error"
          showIcon
          data-testid="own-layer-error"
          title="The layer was refused"
          description={refusal}
          closable
          onClose={() => setRefusal(null)}
        />
      )}
      <Table<OwnLayer>
        style={{ marginTop: 16 }}
        data-testid="own-layer-list"
        rowKey="id"
        size="small"
        loading={list.isLoading}
        dataSource={list.data?.layers ?? []}
        pagination={false}
        scroll={{ x: true }}
        locale={{ emptyText: 'No own layers yet: analyses use our built-in layers everywhere.' }}
        columns={[
          {
            title: 'Name',
            dataIndex: 'label',
            render: (v: string, l) => (
              <>
                <div className="crp-strong">{v}</div>
                <div className="crp-muted crp-small">
                  {l.filename} · {l.crs} · {mb(l.bytes)}
                </div>
              </>
            ),
          },
          { title: 'Hazard', dataIndex: 'hazard', render: (h: string) => labelOf(h) },
          { title: 'Scenario', dataIndex: 'scenario', render: (s: '26' | '45' | '85' | null) => (s ? SCENARIO_LABELS.ssp[s] : 'Every') },
          { title: 'Year', dataIndex: 'year', render: (y: number | null) => y ?? 'Every' },
          { title: 'Return period', dataIndex: 'return_period_years', render: (r: number | null) => (r ? `1 in ${r}` : '-') },
          { title: 'Values', key: 'values', render: (_: unknown, l) => `${l.value_min} to ${l.value_max} ${HAZARD_INDICATORS[l.hazard].unit}` },
          {
            title: 'Extent',
            key: 'extent',
            render: (_: unknown, l) =>
              `${l.bounds.west.toFixed(2)}..${l.bounds.east.toFixed(2)} E, ${l.bounds.south.toFixed(2)}..${l.bounds.north.toFixed(2)} N`,
          },
          { title: 'Uploaded', dataIndex: 'created_at', render: (d: string, l) => `${d.slice(0, 10)}${l.uploaded_by ? ` by ${l.uploaded_by}` : ''}` },
          {
            title: '',
            key: 'delete',
            render: (_: unknown, l) => (
              <Popconfirm
                title="Delete this layer?"
                description="Your portfolios are re-analysed without it."
                okText="Delete"
                okButtonProps={{ danger: true }}
                onConfirm={() => remove.mutate(l.id)}
              >
                <Button danger size="small" icon={<DeleteOutlined />} aria-label={`Delete ${l.label}`} data-testid="own-layer-delete">
                  Delete
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Card>
  );
}
