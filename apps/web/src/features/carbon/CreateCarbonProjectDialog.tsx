import { Form, Input, Modal, Switch } from 'antd';
import type { ButtonProps } from 'antd';
import { useState } from 'react';
import { PROJECT_NAME_MAX_LENGTH } from '@crp/contracts';

/** The Create Project dialog: a project name (Required Field) and the overwrite-existing toggle (spec 001 §4). */
export function CreateCarbonProjectDialog({
  open,
  saving,
  onCancel,
  onSubmit,
}: {
  open: boolean;
  saving: boolean;
  onCancel: () => void;
  onSubmit: (name: string, overwrite: boolean) => void;
}) {
  const [name, setName] = useState('');
  const [overwrite, setOverwrite] = useState(false);
  const [touched, setTouched] = useState(false);
  const empty = name.trim() === '';
  return (
    <Modal
      title="Create Project"
      open={open}
      onCancel={onCancel}
      okText="Submit"
      okButtonProps={{ disabled: empty, loading: saving, 'data-testid': 'create-submit' } as ButtonProps}
      onOk={() => onSubmit(name.trim(), overwrite)}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item
          label="Portfolio Name"
          required
          validateStatus={touched && empty ? 'error' : undefined}
          help={touched && empty ? 'Required Field' : undefined}
        >
          <Input
            autoFocus
            value={name}
            data-testid="create-name"
            onChange={(e) => {
              setName(e.target.value);
              setTouched(true);
            }}
            onBlur={() => setTouched(true)}
            maxLength={PROJECT_NAME_MAX_LENGTH}
            placeholder="e.g. Listed Equity Fund 2026"
          />
        </Form.Item>
        <Form.Item label="Overwrite existing project of the same name">
          <Switch checked={overwrite} onChange={setOverwrite} data-testid="create-overwrite" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
