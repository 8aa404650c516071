import { useState } from 'react';
import { Alert, Form, Input, Modal, Typography } from 'antd';
import { PROJECT_NAME_MAX_LENGTH } from '@crp/contracts';

/** Create Portfolio: turns the selected properties into a physical-risk portfolio (create_project, default hazards). */
export function CreatePortfolioModal({
  open,
  count,
  submitting,
  error,
  onSubmit,
  onCancel,
}: {
  open: boolean;
  count: number;
  submitting: boolean;
  error: string | null;
  onSubmit: (name: string) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState('');
  return (
    <Modal
      open={open}
      title="Create Portfolio"
      okText="Submit"
      onOk={() => onSubmit(name.trim())}
      okButtonProps={{ disabled: name.trim() === '', loading: submitting }}
      onCancel={onCancel}
      data-testid="create-portfolio-modal"
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label="Portfolio Name" required>
          <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={PROJECT_NAME_MAX_LENGTH} aria-label="Portfolio Name" />
        </Form.Item>
      </Form>
      <Typography.Paragraph className="crp-muted">
        A physical-risk portfolio of the {count} selected propert{count === 1 ? 'y' : 'ies'} is created with the default hazards (River Flood, Typhoon, Storm
        Surge) and analysed; it then appears in your projects.
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} />}
    </Modal>
  );
}
