import { useEffect, useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router-dom';
import { PASSWORD_MIN_LENGTH, PASSWORDS_DO_NOT_MATCH } from '@crp/contracts';
import { confirmPasswordReset } from '../../api/accounts';
import { ApiError } from '../../api/http';
import { useAuth } from '../../lib/AuthProvider';

interface Values {
  password: string;
  confirm_password: string;
}

let taken = '';
/** Read once: the token leaves the address bar (and the history) as soon as the page has it. */
function takeToken(): string {
  const token = new URLSearchParams(window.location.search).get('token');
  if (token) {
    taken = token;
    window.history.replaceState(window.history.state, '', '/reset-password');
  }
  return taken;
}

/** The new password of a reset link (the registration rules); then every session ends and the user logs in again. */
export function ResetPasswordForm() {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const { forgetSession } = useAuth();
  const [token] = useState(takeToken);
  const [errors, setErrors] = useState<string[]>([]);
  const [linkDead, setLinkDead] = useState(false);
  const password = Form.useWatch('password', form) ?? '';
  const confirm = Form.useWatch('confirm_password', form) ?? '';

  useEffect(() => {
    if (!token) setLinkDead(true);
  }, [token]);

  const mutation = useMutation({
    mutationFn: (v: Values) => confirmPasswordReset({ token, password: v.password, confirm_password: v.confirm_password }),
    onMutate: () => setErrors([]),
    onSuccess: (r) => {
      forgetSession(); // every session of the account ended, this browser's too
      navigate('/login', { replace: true, state: { passwordChanged: r.detail } });
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        if (err.errors.some((e) => e.field === 'token')) setLinkDead(true);
        setErrors([...new Set([...err.errors.map((e) => e.message), ...(err.errors.length ? [] : [err.detail ?? 'Try again.'])])]);
      } else setErrors(['The request failed. Try again.']);
    },
  });

  if (linkDead)
    return (
      <div data-testid="reset-link-invalid">
        <Alert
          type="error"
          showIcon
          role="alert"
          className="crp-form-alert"
          title={errors[0] ?? 'This page needs the link from your password reset e-mail. Ask for a new link.'}
        />
        <Link to="/forgot-password">Ask for a new link</Link>
      </div>
    );

  return (
    <Form<Values> form={form} layout="vertical" requiredMark={false} size="large" onFinish={(v) => mutation.mutate(v)} aria-label="New password">
      {errors.length > 0 && (
        <Alert
          type="error"
          showIcon
          role="alert"
          className="crp-form-alert"
          data-testid="reset-errors"
          title={
            <ul className="crp-message-list">
              {errors.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          }
        />
      )}
      <Form.Item
        label="New password"
        name="password"
        rules={[
          { required: true, message: 'Choose a password' },
          { min: PASSWORD_MIN_LENGTH, message: `At least ${PASSWORD_MIN_LENGTH} characters` },
          { whitespace: true, message: 'A password of spaces only is refused' },
        ]}
        extra={`At least ${PASSWORD_MIN_LENGTH} characters. Common passwords, repeats (aaaa), sequences (abcd, 1234), keyboard rows (qwerty) and your username are refused.`}
      >
        <Input.Password autoComplete="new-password" autoFocus />
      </Form.Item>
      <Form.Item
        label="Confirm new password"
        name="confirm_password"
        dependencies={['password']}
        validateStatus={confirm && confirm !== password ? 'error' : undefined}
        help={confirm && confirm !== password ? PASSWORDS_DO_NOT_MATCH : undefined}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block disabled={!password || password !== confirm} loading={mutation.isPending}>
        Set new password
      </Button>
      <p className="crp-muted crp-auth-footer">Every session of your account ends: you log in again with the new password.</p>
    </Form>
  );
}
