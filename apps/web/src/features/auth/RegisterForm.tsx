import { useState } from 'react';
import { Alert, Button, Checkbox, Col, Form, Input, Row } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { PASSWORD_MIN_LENGTH, PASSWORDS_DO_NOT_MATCH, USERNAME_MIN_LENGTH, USERNAME_PATTERN } from '@crp/contracts';
import { register, type RegisterInput, type RegisterResult } from '../../api/accounts';
import { firstErrorMessage } from '../../api/http';
import { useAuth } from '../../lib/AuthProvider';

interface RegisterValues {
  first_name: string;
  last_name: string;
  username: string;
  email: string;
  password: string;
  confirm_password: string;
  company_name?: string;
  join_existing: boolean;
  company_code?: string;
}

/** Create Account form (spec 000 §2). The Register button stays disabled until the confirmation matches. */
export function RegisterForm({ onRegistered }: { onRegistered: (result: RegisterResult) => void }) {
  const [form] = Form.useForm<RegisterValues>();
  const { forgetSession } = useAuth();
  const [error, setError] = useState<string | null>(null);
  const password = Form.useWatch('password', form) ?? '';
  const confirm = Form.useWatch('confirm_password', form) ?? '';
  const joinExisting = Form.useWatch('join_existing', form) ?? false;
  const passwordsMatch = password.length > 0 && password === confirm;

  const mutation = useMutation({
    mutationFn: (body: RegisterInput) => register(body),
    onMutate: () => setError(null),
    onSuccess: onRegistered,
    onError: (err) => {
      forgetSession();
      setError(firstErrorMessage(err, 'Registration failed. Try again.'));
      window.scrollTo({ top: 0, behavior: 'smooth' });
    },
  });

  const onFinish = (v: RegisterValues) => {
    const code = v.company_code?.trim();
    mutation.mutate({
      first_name: v.first_name.trim(),
      last_name: v.last_name.trim(),
      username: v.username.trim(),
      email: v.email.trim(),
      password: v.password,
      confirm_password: v.confirm_password,
      ...(v.join_existing && code ? { company_code: code } : { company_name: v.company_name?.trim() ?? '' }),
    });
  };

  return (
    <Form<RegisterValues>
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      initialValues={{ join_existing: false }}
      aria-label="Create Account"
    >
      {error && <Alert type="error" showIcon role="alert" className="crp-form-alert" data-testid="register-error" title={error} />}
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item label="First name" name="first_name" rules={[{ required: true, whitespace: true, message: 'Enter your first name' }]}>
            <Input autoComplete="given-name" autoFocus />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item label="Last name" name="last_name" rules={[{ required: true, whitespace: true, message: 'Enter your last name' }]}>
            <Input autoComplete="family-name" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item
        label="Username"
        name="username"
        rules={[
          { required: true, whitespace: true, message: 'Choose a username' },
          { min: USERNAME_MIN_LENGTH, message: `At least ${USERNAME_MIN_LENGTH} characters` },
          { pattern: USERNAME_PATTERN, message: 'Letters, digits and . _ @ + - only' },
        ]}
      >
        <Input autoComplete="username" spellCheck={false} />
      </Form.Item>
      <Form.Item
        label="Email"
        name="email"
        rules={[
          { required: true, message: 'Enter your e-mail address' },
          { type: 'email', message: 'Enter a valid e-mail address' },
        ]}
      >
        <Input type="email" autoComplete="email" />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item
            label="Password"
            name="password"
            rules={[
              { required: true, message: 'Choose a password' },
              { min: PASSWORD_MIN_LENGTH, message: `At least ${PASSWORD_MIN_LENGTH} characters` },
              { whitespace: true, message: 'A password of spaces only is refused' },
            ]}
            extra={`At least ${PASSWORD_MIN_LENGTH} characters. A few unrelated words work well; common passwords, repeats (aaaa), sequences (abcd, 1234), keyboard rows (qwerty) and your username are refused.`}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            label="Confirm password"
            name="confirm_password"
            dependencies={['password']}
            validateStatus={confirm && confirm !== password ? 'error' : undefined}
            help={confirm && confirm !== password ? PASSWORDS_DO_NOT_MATCH : undefined}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="join_existing" valuePropName="checked" className="crp-join-toggle">
        <Checkbox>I was given a company code (join an existing company)</Checkbox>
      </Form.Item>
      {/* joining, the company has its name: it is asked only to create one (issue 37 item 7) */}
      {!joinExisting && (
        <Form.Item
          label="Company name"
          name="company_name"
          rules={[{ required: true, whitespace: true, message: 'Enter your company name' }]}
          extra="A new company is created with you as its administrator."
        >
          <Input autoComplete="organization" />
        </Form.Item>
      )}
      {joinExisting && (
        <Form.Item
          label="Company code"
          name="company_code"
          rules={[{ required: true, whitespace: true, message: 'Enter the company code you were given' }]}
          extra="A company administrator approves your request before you can log in."
        >
          <Input spellCheck={false} />
        </Form.Item>
      )}
      <Button type="primary" htmlType="submit" size="large" block disabled={!passwordsMatch} loading={mutation.isPending}>
        Register
      </Button>
      <div className="crp-auth-footer">
        Already have an account? <Link to="/login">Log in</Link>
      </div>
    </Form>
  );
}
