import { useState } from 'react';
import { Alert, Button, Col, Form, Input, Result, Row } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { DEMO_MESSAGE_MAX_LENGTH } from '@crp/contracts';
import { requestDemo, type DemoRequestInput } from '../../api/accounts';
import { firstErrorMessage } from '../../api/http';

/** Request a Demo: stored server-side through `POST api/demo_request/`. */
export function DemoRequestForm() {
  const [form] = Form.useForm<DemoRequestInput>();
  const [error, setError] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: requestDemo,
    onMutate: () => setError(null),
    onError: (err) => setError(firstErrorMessage(err, 'Your request could not be sent. Try again.')),
  });

  if (mutation.isSuccess) {
    return (
      <Result
        status="success"
        title="Thank you, your request is in"
        subTitle="Our team will contact you by e-mail to schedule a walkthrough with your own assets."
        className="crp-demo-done"
        data-testid="demo-success"
      />
    );
  }

  return (
    <Form<DemoRequestInput>
      form={form}
      layout="vertical"
      requiredMark="optional"
      aria-label="Request a Demo"
      onFinish={(v) =>
        mutation.mutate({
          name: v.name.trim(),
          email: v.email.trim(),
          company: v.company.trim(),
          ...(v.role?.trim() ? { role: v.role.trim() } : {}),
          ...(v.message?.trim() ? { message: v.message.trim() } : {}),
        })
      }
    >
      {error && <Alert type="error" showIcon role="alert" className="crp-form-alert" title={error} />}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item label="Name" name="name" rules={[{ required: true, whitespace: true, message: 'Enter your name' }]}>
            <Input autoComplete="name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            label="Work e-mail"
            name="email"
            rules={[
              { required: true, message: 'Enter your e-mail' },
              { type: 'email', message: 'Enter a valid e-mail address' },
            ]}
          >
            <Input type="email" autoComplete="email" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="Company" name="company" rules={[{ required: true, whitespace: true, message: 'Enter your company' }]}>
            <Input autoComplete="organization" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item label="Role" name="role">
            <Input autoComplete="organization-title" placeholder="e.g. Head of Climate Risk" />
          </Form.Item>
        </Col>
        <Col xs={24}>
          <Form.Item label="What would you like to see?" name="message">
            <Input.TextArea rows={3} maxLength={DEMO_MESSAGE_MAX_LENGTH} placeholder="Portfolio size, asset types, regions, reporting needs..." />
          </Form.Item>
        </Col>
      </Row>
      <Button type="primary" htmlType="submit" size="large" loading={mutation.isPending}>
        Request a Demo
      </Button>
    </Form>
  );
}
