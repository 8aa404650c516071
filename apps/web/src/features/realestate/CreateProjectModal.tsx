import { useEffect, useState } from 'react';
import { Alert, Form, Input, InputNumber, Modal, Space, Switch, Typography } from 'antd';
import { PROJECT_NAME_MAX_LENGTH, PROPERTY_RING_DEFAULTS_KM, PROPERTY_RING_MAX_KM } from '@crp/contracts';

export interface CreateProjectValues {
  name: string;
  overwrite: boolean;
  minKm: number;
  maxKm: number;
}

/** Create Project (property risk): project name, the ring around each property and the overwrite-existing toggle. */
export function CreateProjectModal({
  open,
  count,
  submitting,
  progress,
  error,
  onSubmit,
  onCancel,
}: {
  open: boolean;
  count: number;
  submitting: boolean;
  progress: string | null;
  error: string[] | null;
  onSubmit: (v: CreateProjectValues) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState('');
  const [overwrite, setOverwrite] = useState(false);
  const [minKm, setMinKm] = useState<number>(PROPERTY_RING_DEFAULTS_KM.min_distance);
  const [maxKm, setMaxKm] = useState<number>(PROPERTY_RING_DEFAULTS_KM.max_distance);
  useEffect(() => {
    if (open) setOverwrite(false);
  }, [open]);
  const ringOk = minKm >= 0 && maxKm > minKm && maxKm <= PROPERTY_RING_MAX_KM;
  return (
    <Modal
      open={open}
      title="Create Project"
      okText="Submit"
      onOk={() => onSubmit({ name: name.trim(), overwrite, minKm, maxKm })}
      okButtonProps={{ disabled: name.trim() === '' || !ringOk, loading: submitting }}
      onCancel={onCancel}
      cancelButtonProps={{ disabled: submitting }}
      maskClosable={!submitting}
      data-testid="create-project-modal"
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={() => undefined}>
        <Form.Item label="Project Name" required>
          <Input
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={PROJECT_NAME_MAX_LENGTH}
            placeholder="e.g. Hong Kong residential"
            aria-label="Project Name"
            autoFocus
          />
        </Form.Item>
        <Form.Item
          label="Surroundings ring (km)"
          extra={`Scores are also summarised from ${minKm} to ${maxKm} km around each property; population and GDP count within ${maxKm} km.`}
        >
          <Space>
            <InputNumber
              min={0}
              max={PROPERTY_RING_MAX_KM - 0.5}
              step={0.5}
              value={minKm}
              onChange={(v) => setMinKm(v ?? 0)}
              aria-label="Minimum distance (km)"
              addonBefore="from"
            />
            <InputNumber
              min={0.5}
              max={PROPERTY_RING_MAX_KM}
              step={0.5}
              value={maxKm}
              onChange={(v) => setMaxKm(v ?? PROPERTY_RING_DEFAULTS_KM.max_distance)}
              aria-label="Maximum distance (km)"
              addonBefore="to"
            />
          </Space>
        </Form.Item>
        <Form.Item label="Overwrite existing project of the same name">
          <Switch checked={overwrite} onChange={setOverwrite} aria-label="Overwrite existing" />
        </Form.Item>
      </Form>
      <Typography.Paragraph className="crp-muted">
        {count} propert{count === 1 ? 'y' : 'ies'} will be scored for flood and typhoon.
      </Typography.Paragraph>
      {submitting && progress && <Alert type="info" showIcon message={progress} data-testid="create-project-progress" />}
      {error && (
        <Alert
          type="error"
          showIcon
          message="The project could not be created"
          description={
            <ul className="crp-error-lines">
              {error.slice(0, 20).map((l, i) => (
                <li key={i}>{l}</li>
              ))}
            </ul>
          }
          data-testid="create-project-error"
        />
      )}
    </Modal>
  );
}
