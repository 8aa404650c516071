import { useState } from 'react';
import { Alert, Button, Form, Input, Modal } from 'antd';
import { KeyOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TWO_FA_CODE_MAX_LENGTH, type TwoFaMethod } from '@crp/contracts';
import { fetchRecoveryCodesStatus, regenerateRecoveryCodes, sendCurrentMfaCode } from '../../api/accounts';
import { ApiError } from '../../api/http';
import { RecoveryCodesModal } from './RecoveryCodesModal';

const STATUS_KEY = ['accounts', 'recovery-codes'] as const;

/** The count of recovery codes left, and "Generate new recovery codes" (needs a current code of the method in force). */
export function RecoveryCodesSection({ method, username }: { method: TwoFaMethod; username?: string | undefined }) {
  const queryClient = useQueryClient();
  const status = useQuery({ queryKey: STATUS_KEY, queryFn: fetchRecoveryCodesStatus });
  const [asking, setAsking] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [form] = Form.useForm<{ current_code: string }>();
  const send = useMutation({ mutationFn: sendCurrentMfaCode, onSuccess: (r) => setSentTo(r.sent_to) });
  const regenerate = useMutation({
    mutationFn: (code: string) => regenerateRecoveryCodes(code),
    onMutate: () => setError(null),
    onSuccess: (r) => {
      setAsking(false);
      setCodes(r.recovery_codes);
      void queryClient.invalidateQueries({ queryKey: STATUS_KEY });
    },
    onError: (err) => setError(err instanceof ApiError ? (err.errors[0]?.message ?? err.detail ?? 'Try again.') : 'Try again.'),
  });
  const remaining = status.data?.remaining;
  return (
    <section className="crp-recovery-section" aria-label="Recovery codes">
      <h3 className="crp-subheading">
        <KeyOutlined /> Recovery codes
      </h3>
      <p className="crp-muted" data-testid="recovery-codes-left">
        {remaining === undefined
          ? 'Loading…'
          : remaining === 0
            ? 'You have no recovery codes left. Generate new ones, or you may be locked out if you lose your second factor.'
            : `${remaining} of 10 recovery codes left. Each signs you in once if you lose your phone or e-mail access.`}
      </p>
      {remaining !== undefined && remaining <= 3 && remaining > 0 && (
        <Alert type="warning" showIcon className="crp-form-alert" title="Few recovery codes left: generate new ones." />
      )}
      <Button
        onClick={() => {
          form.resetFields();
          setError(null);
          setAsking(true);
        }}
      >
        Generate new recovery codes
      </Button>
      <Modal open={asking} title="Generate new recovery codes" onCancel={() => setAsking(false)} footer={null} width={440} destroyOnHidden>
        <p>Your current recovery codes will stop working. Confirm with a code of your current method (a recovery code is not accepted here).</p>
        {error && <Alert type="error" showIcon role="alert" className="crp-form-alert" title={error} />}
        <Form form={form} layout="vertical" requiredMark={false} onFinish={(v) => regenerate.mutate(v.current_code.trim())}>
          <Form.Item
            label={method === 'app' ? 'Code from your authenticator app' : 'Code e-mailed to you'}
            name="current_code"
            rules={[{ required: true, whitespace: true, message: 'Enter the 6-digit code' }]}
            extra={
              method === 'email' ? (
                <span>
                  <Button htmlType="button" size="small" onClick={() => send.mutate()} loading={send.isPending}>
                    {sentTo ? 'Send another code' : 'E-mail me a code'}
                  </Button>
                  {sentTo && <span role="status"> Sent to {sentTo}.</span>}
                </span>
              ) : undefined
            }
          >
            <Input size="large" inputMode="numeric" autoComplete="one-time-code" placeholder="6-digit code" maxLength={TWO_FA_CODE_MAX_LENGTH} autoFocus />
          </Form.Item>
          <div className="crp-modal-actions">
            <Button onClick={() => setAsking(false)}>Cancel</Button>
            <Button type="primary" htmlType="submit" loading={regenerate.isPending}>
              Generate
            </Button>
          </div>
        </Form>
      </Modal>
      <RecoveryCodesModal codes={codes} username={username} onClose={() => setCodes(null)} />
    </section>
  );
}
