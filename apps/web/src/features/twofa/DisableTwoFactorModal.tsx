import { useEffect, useState } from 'react';
import { Alert, App, Button, Form, Modal } from 'antd';
import { useMutation } from '@tanstack/react-query';
import type { TwoFaMethod } from '@crp/contracts';
import { disableMultifactor, type MfaConfirmation } from '../../api/accounts';
import { ConfirmIdentityFields, confirmationOf, fieldErrorsOf } from './ConfirmIdentityFields';

export const DISABLE_OK = 'Two-factor authentication is off.';
export const DISABLE_FAILED = 'Two-factor authentication was not turned off. Try again.';

/** Turns 2FA off after the password and a code of the method in force (issue 21). */
export function DisableTwoFactorModal({
  open,
  currentMethod,
  onClose,
  onDisabled,
}: {
  open: boolean;
  currentMethod: TwoFaMethod;
  onClose: () => void;
  onDisabled: () => void;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<Partial<MfaConfirmation>>();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (open) {
      setError(null);
      form.resetFields();
    }
  }, [open, form]);

  const mutation = useMutation({
    mutationFn: (c: MfaConfirmation) => disableMultifactor(c),
    onSuccess: () => {
      void message.success(DISABLE_OK);
      onDisabled();
    },
    onError: (err) => {
      const { fields, detail } = fieldErrorsOf(err, DISABLE_FAILED);
      form.setFields(fields as never);
      setError(detail);
    },
  });

  return (
    <Modal open={open} title="Turn off two-factor authentication" onCancel={onClose} footer={null} destroyOnHidden width={460} maskClosable={false}>
      <p>Without it, your password alone opens your account. You will be told by e-mail.</p>
      {error && <Alert type="error" showIcon role="alert" className="crp-form-alert" title={error} data-testid="disable-error" />}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => mutation.mutate(confirmationOf(v))}>
        <ConfirmIdentityFields currentMethod={currentMethod} />
        <div className="crp-modal-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" danger htmlType="submit" loading={mutation.isPending}>
            Turn off 2FA
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
