import { useState } from 'react';
import { App, Button, Form, Input } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { TWO_FA_CODE_MAX_LENGTH, type TwoFaMethod } from '@crp/contracts';
import { sendCurrentMfaCode, type MfaConfirmation } from '../../api/accounts';
import { ApiError } from '../../api/http';

export const CONFIRM_FIELDS = ['password', 'current_code'] as const;

/**
 * Password and a code of the method in force, asked before 2FA is changed or turned off while it is on (issue 21):
 * a signed-in session alone cannot replace the second factor. Plain labelled inputs inside the dialog's form, so Tab
 * moves through them and Enter submits; the e-mail method gets a button that sends the code (it never submits).
 */
export function ConfirmIdentityFields({ currentMethod }: { currentMethod: TwoFaMethod }) {
  const { message } = App.useApp();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: sendCurrentMfaCode,
    onSuccess: (res) => setSentTo(res.sent_to),
    onError: (err) => void message.error(err instanceof ApiError && err.detail ? err.detail : 'The code could not be sent. Try again.'),
  });
  return (
    <fieldset className="crp-confirm-identity" data-testid="confirm-identity">
      <legend>Confirm it is you</legend>
      <p className="crp-muted">
        Two-factor authentication is on. To change or turn it off, enter your password and a code of your current method (or one of your recovery codes, if you
        lost it).
      </p>
      <Form.Item label="Your password" name="password" rules={[{ required: true, message: 'Enter your password' }]}>
        <Input.Password size="large" autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        label={currentMethod === 'app' ? 'Code from your current authenticator app' : 'Code e-mailed to you'}
        name="current_code"
        rules={[{ required: true, whitespace: true, message: 'Enter the 6-digit code of your current method' }]}
        extra={
          currentMethod === 'email' ? (
            <span className="crp-confirm-send">
              <Button htmlType="button" size="small" onClick={() => send.mutate()} loading={send.isPending}>
                {sentTo ? 'Send another code' : 'E-mail me a code'}
              </Button>
              {sentTo && <span role="status"> Sent to {sentTo}.</span>}
            </span>
          ) : undefined
        }
      >
        <Input size="large" autoComplete="one-time-code" placeholder="6-digit code or a recovery code" maxLength={TWO_FA_CODE_MAX_LENGTH} spellCheck={false} />
      </Form.Item>
    </fieldset>
  );
}

/** The confirmation fields of a submitted form, trimmed. */
export function confirmationOf(values: Partial<MfaConfirmation>): MfaConfirmation {
  return { password: values.password ?? '', current_code: (values.current_code ?? '').trim() };
}

/** Puts an API error's field messages (password, current_code, code) under their inputs; returns the sentence to show. */
export function fieldErrorsOf(err: unknown, fallback: string): { fields: { name: string; errors: string[] }[]; detail: string } {
  if (!(err instanceof ApiError)) return { fields: [], detail: fallback };
  const fields = err.errors.filter((e) => ['code', ...CONFIRM_FIELDS].includes(e.field)).map((e) => ({ name: e.field, errors: [e.message] }));
  return { fields, detail: err.status === 400 && err.errors.some((e) => e.field === 'code') ? fallback : (err.detail ?? fallback) };
}
