import { useEffect, useState } from 'react';
import { Alert, App, Button, Form, Input, Modal, Skeleton, Typography } from 'antd';
import { MailOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { TWO_FA_CODE_MAX_LENGTH, type TwoFaMethod } from '@crp/contracts';
import { verifyMultifactor, type ConfigureMfaResult, type MfaConfirmation, type VerifyMfaResult } from '../../api/accounts';
import { ConfirmIdentityFields, confirmationOf, fieldErrorsOf } from './ConfirmIdentityFields';

export const VERIFY_FAILED = 'Invalid verification code. Please try again.';
export const VERIFY_OK = '2FA verification successful';

/**
 * Second dialog of the 2FA setup: a QR code and key for the app method, or a code input for e-mail. When 2FA is already
 * on (`currentMethod`), it also asks for the password and a code of the method in force.
 */
export function VerifyTwoFactorModal({
  setup,
  onClose,
  onVerified,
  qrDataUrl,
  currentMethod = null,
}: {
  setup: ConfigureMfaResult['data'] | null;
  qrDataUrl: string | null;
  onClose: () => void;
  onVerified: (result: VerifyMfaResult) => void;
  currentMethod?: TwoFaMethod | null;
}) {
  const { message } = App.useApp();
  const [form] = Form.useForm<{ code: string } & Partial<MfaConfirmation>>();
  const [error, setError] = useState<string | null>(null);
  const open = setup !== null;

  useEffect(() => {
    if (open) {
      setError(null); // errors are cleared when dialogs open (spec 000 §4)
      form.resetFields();
    }
  }, [open, form]);

  const mutation = useMutation({
    mutationFn: (v: { code: string; confirmation?: MfaConfirmation }) => verifyMultifactor(setup?.method ?? 'app', v.code, v.confirmation),
    onSuccess: (result) => {
      void message.success(VERIFY_OK);
      onVerified(result);
    },
    onError: (err) => {
      const { fields, detail } = fieldErrorsOf(err, VERIFY_FAILED);
      form.setFields(fields as never);
      setError(detail);
      void message.error(detail);
    },
  });

  return (
    <Modal
      open={open}
      title={setup?.method === 'email' ? 'Verify e-mail 2FA' : 'Verify authenticator app'}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={460}
      maskClosable={false}
    >
      {setup?.method === 'app' && (
        <div className="crp-verify-app">
          <ol className="crp-steps-list">
            <li>Open your authenticator app and add an account.</li>
            <li>Scan this QR code, or enter the key below.</li>
            <li>Type the 6-digit code the app shows.</li>
          </ol>
          <div className="crp-qr">
            {qrDataUrl ? (
              <img src={qrDataUrl} width={208} height={208} alt="QR code to add this account to your authenticator app" data-testid="totp-qr" />
            ) : (
              <Skeleton.Image active style={{ width: 208, height: 208 }} />
            )}
          </div>
          {setup.secret && (
            <div className="crp-secret">
              <span className="crp-secret-label">Setup key</span>
              <Typography.Text copyable={{ text: setup.secret, tooltips: ['Copy key', 'Copied'] }} className="crp-secret-value">
                <span data-testid="totp-secret">{setup.secret}</span>
              </Typography.Text>
            </div>
          )}
        </div>
      )}
      {setup?.method === 'email' && (
        <Alert
          type="info"
          showIcon
          icon={<MailOutlined />}
          className="crp-form-alert"
          title={setup.sent_to ? `We sent a 6-digit code to ${setup.sent_to}.` : 'We sent a 6-digit code to your e-mail address.'}
        />
      )}
      {error && <Alert type="error" showIcon role="alert" className="crp-form-alert" title={error} data-testid="verify-error" />}
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(v) => mutation.mutate({ code: v.code.trim(), ...(currentMethod ? { confirmation: confirmationOf(v) } : {}) })}
      >
        <Form.Item
          label={currentMethod ? 'Verification code of the new method' : 'Verification code'}
          name="code"
          rules={[{ required: true, whitespace: true, message: 'Enter the 6-digit code' }]}
        >
          <Input
            size="large"
            inputMode="numeric"
            autoComplete="one-time-code"
            placeholder="6-digit code"
            maxLength={TWO_FA_CODE_MAX_LENGTH}
            autoFocus
            spellCheck={false}
          />
        </Form.Item>
        {currentMethod && <ConfirmIdentityFields currentMethod={currentMethod} />}
        <div className="crp-modal-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="primary" htmlType="submit" loading={mutation.isPending}>
            Verify Setup
          </Button>
        </div>
      </Form>
    </Modal>
  );
}
