import { useState } from 'react';
import { Alert, Button, Form, Input, Segmented } from 'antd';
import { MailOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { requestPasswordReset } from '../../api/accounts';
import { ApiError } from '../../api/http';

interface Values {
  email?: string;
  username?: string;
  company_code?: string;
}

/**
 * "Forgot password?" (issue 37 item 6): the account by username and company code (the login's fields) or by e-mail
 * address. The answer is the same whether or not an account matches, so the page shows it as it comes.
 */
export function ForgotPasswordForm() {
  const [form] = Form.useForm<Values>();
  const [by, setBy] = useState<'account' | 'email'>('account');
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (v: Values) =>
      requestPasswordReset(by === 'email' ? { email: v.email!.trim() } : { username: v.username!.trim(), company_code: v.company_code!.trim() }),
    onMutate: () => setError(null),
    onSuccess: (r) => setDone(r.detail),
    onError: (err) => setError(err instanceof ApiError ? (err.errors[0]?.message ?? err.detail ?? 'Try again.') : 'The request failed. Try again.'),
  });

  if (done)
    return (
      <div data-testid="reset-requested">
        <Alert type="success" showIcon className="crp-form-alert" role="status" title={done} />
        <div className="crp-auth-footer">
          <Link to="/login">Back to log in</Link>
        </div>
      </div>
    );

  return (
    <Form<Values> form={form} layout="vertical" requiredMark={false} size="large" onFinish={(v) => mutation.mutate(v)} aria-label="Forgot password">
      {error && <Alert type="error" showIcon role="alert" className="crp-form-alert" title={error} />}
      <Form.Item label="Find my account by">
        <Segmented
          block
          value={by}
          onChange={(v) => setBy(v as 'account' | 'email')}
          options={[
            { label: 'Username and code', value: 'account' },
            { label: 'E-mail address', value: 'email' },
          ]}
        />
      </Form.Item>
      {by === 'account' ? (
        <>
          <Form.Item label="Username" name="username" rules={[{ required: true, whitespace: true, message: 'Enter your username' }]}>
            <Input prefix={<UserOutlined />} autoComplete="username" autoFocus />
          </Form.Item>
          <Form.Item label="Company code" name="company_code" rules={[{ required: true, whitespace: true, message: 'Enter your company code' }]}>
            <Input prefix={<TeamOutlined />} autoComplete="organization" spellCheck={false} />
          </Form.Item>
        </>
      ) : (
        <Form.Item
          label="E-mail address"
          name="email"
          rules={[
            { required: true, message: 'Enter your e-mail address' },
            { type: 'email', message: 'Enter a valid e-mail address' },
          ]}
          extra="If the address belongs to accounts in several companies, each gets its own link."
        >
          <Input prefix={<MailOutlined />} type="email" autoComplete="email" autoFocus />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
        E-mail me a reset link
      </Button>
      <div className="crp-auth-footer">
        Remembered it? <Link to="/login">Log in</Link>
      </div>
    </Form>
  );
}
