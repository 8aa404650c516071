import { useState } from 'react';
import { Alert, Button, Form, Input } from 'antd';
import { LockOutlined, SafetyOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { TWO_FA_CODE_MAX_LENGTH, type LoginResponse, type TwoFaMethod } from '@crp/contracts';
import { login, type LoginResult } from '../../api/accounts';
import { ApiError } from '../../api/http';
import { useNotificationToasts } from '../../lib/useNotificationToasts';
import { useAuth } from '../../lib/AuthProvider';
import { sessionEnded } from '../../lib/storage';
import { originOf } from './RequireAuth';

interface LoginValues {
  username: string;
  password: string;
  company_code: string;
  totp_code?: string;
}

export interface LoginPrefill {
  username?: string;
  companyCode?: string;
}

const LOGIN_FAILED = 'Login failed. Try again.';

function failureMessages(err: unknown): string[] {
  if (err instanceof ApiError) {
    const list = [err.detail ?? LOGIN_FAILED];
    for (const e of err.errors) if (!list.includes(e.message)) list.push(e.message);
    return list;
  }
  return [LOGIN_FAILED];
}

/** Username, password and company code; a second step asks for the 2FA code when the server requires it. */
export function LoginForm() {
  const [form] = Form.useForm<LoginValues>();
  const location = useLocation();
  const navigate = useNavigate();
  const { signIn, forgetSession } = useAuth();
  const showNotifications = useNotificationToasts();
  const prefill = (location.state as { prefill?: LoginPrefill } | null)?.prefill;
  const [codeMethod, setCodeMethod] = useState<TwoFaMethod | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  // A session that ended by itself (idle time-out, 12-hour limit, signed out elsewhere) is said so, not a bare form.
  const [ended] = useState(sessionEnded);
  const passwordChanged = (location.state as { passwordChanged?: string } | null)?.passwordChanged;

  const onSignedIn = (data: LoginResponse) => {
    signIn(data);
    showNotifications(data.pending_notifications);
    const origin = originOf(location.state);
    if (origin) navigate(origin.to, { replace: true, state: origin.state });
    else navigate(data.user.is_2fa_enabled ? '/location' : '/setup', { replace: true });
  };

  const mutation = useMutation({
    mutationFn: (values: LoginValues) =>
      login({
        username: values.username.trim(),
        password: values.password,
        company_code: values.company_code.trim(),
        ...(codeMethod && values.totp_code ? { totp_code: values.totp_code.trim() } : {}),
      }),
    onMutate: () => setErrors([]),
    onSuccess: (result: LoginResult) => {
      if (result.kind === 'signed-in') return onSignedIn(result.data);
      if (!codeMethod) {
        setCodeMethod(result.method);
        window.setTimeout(() => form.getFieldInstance('totp_code')?.focus?.(), 50);
      } else {
        setErrors(['Enter the 6-digit code (or a recovery code) to continue.']);
      }
    },
    onError: (err) => {
      forgetSession();
      setErrors(failureMessages(err));
    },
  });

  const restart = () => {
    setCodeMethod(null);
    setErrors([]);
    form.setFieldValue('totp_code', undefined);
  };

  return (
    <Form<LoginValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      size="large"
      initialValues={{ username: prefill?.username ?? '', company_code: prefill?.companyCode ?? '' }}
      onFinish={(values) => mutation.mutate(values)}
      aria-label="Login"
    >
      {ended && errors.length === 0 && !passwordChanged && (
        <Alert type="warning" showIcon className="crp-form-alert" role="status" data-testid="session-ended" title="Your session ended. Please log in again." />
      )}
      {passwordChanged && errors.length === 0 && (
        <Alert type="success" showIcon className="crp-form-alert" role="status" data-testid="password-changed" title={passwordChanged} />
      )}
      {errors.length > 0 && (
        <Alert
          type="error"
          showIcon
          className="crp-form-alert"
          role="alert"
          data-testid="login-errors"
          title={
            <ul className="crp-message-list">
              {errors.map((m) => (
                <li key={m}>{m}</li>
              ))}
            </ul>
          }
        />
      )}
      <Form.Item label="Username" name="username" rules={[{ required: true, whitespace: true, message: 'Enter your username' }]}>
        <Input prefix={<UserOutlined />} autoComplete="username" autoFocus={!prefill?.username} />
      </Form.Item>
      <Form.Item label="Password" name="password" rules={[{ required: true, message: 'Enter your password' }]} style={{ marginBottom: 16 }}>
        <Input.Password prefix={<LockOutlined />} autoComplete="current-password" autoFocus={!!prefill?.username} />
      </Form.Item>
      {!codeMethod && (
        <Link to="/forgot-password" className="crp-forgot-link" data-testid="forgot-password">
          Forgot password?
        </Link>
      )}
      <Form.Item
        label="Company code"
        name="company_code"
        rules={[{ required: true, whitespace: true, message: 'Enter your company code' }]}
        extra={codeMethod ? undefined : 'The code your company received when it registered.'}
      >
        <Input prefix={<TeamOutlined />} autoComplete="organization" spellCheck={false} />
      </Form.Item>
      {codeMethod && (
        <>
          <Alert
            type="info"
            showIcon
            className="crp-form-alert"
            title={
              codeMethod === 'email'
                ? 'We sent a 6-digit code to your e-mail address. Enter it to continue, or one of your recovery codes.'
                : 'Enter the 6-digit code from your authenticator app. Lost your phone? Enter one of your recovery codes instead.'
            }
          />
          <Form.Item
            label="2FA code or recovery code"
            name="totp_code"
            rules={[{ required: true, whitespace: true, message: 'Enter the 6-digit code or a recovery code' }]}
          >
            <Input
              prefix={<SafetyOutlined />}
              autoComplete="one-time-code"
              placeholder="123456 or XXXX-XXXX-XXXX-XXXX"
              maxLength={TWO_FA_CODE_MAX_LENGTH}
              spellCheck={false}
            />
          </Form.Item>
        </>
      )}
      <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
        {codeMethod ? 'Continue' : 'Log In'}
      </Button>
      <div className="crp-auth-footer">
        {codeMethod ? (
          <Button type="link" onClick={restart}>
            Use a different account
          </Button>
        ) : (
          <span>
            New to the platform? <Link to="/register">Create an account</Link>
          </span>
        )}
      </div>
    </Form>
  );
}
