import { Alert, Result, Typography } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { ButtonLink } from '../../ui/ButtonLink';
import type { RegisterResult } from '../../api/accounts';

/** After registration: the company code, prominently, because login needs it; or the pending-approval notice. */
export function RegistrationResult({ result }: { result: RegisterResult }) {
  const prefill = { username: result.user.username, companyCode: result.company_code };
  if (result.status === 'pending') {
    return (
      <Result
        icon={<ClockCircleOutlined style={{ color: '#d97706' }} />}
        status="info"
        title="Waiting for approval"
        subTitle={
          <>
            Your request to join <strong>{result.company_name}</strong> was sent. A company administrator must approve it before you can log in. You will be
            able to sign in with company code <Typography.Text code>{result.company_code}</Typography.Text> once approved.
          </>
        }
        extra={
          <ButtonLink to="/login" state={{ prefill }} type="primary">
            Go to Log In
          </ButtonLink>
        }
      />
    );
  }
  return (
    <div className="crp-register-done" data-testid="registration-success">
      <Result
        status="success"
        title="Account created"
        subTitle={<>Your company workspace is ready and you are its administrator.</>}
        className="crp-register-result"
      />
      <div className="crp-company-code-box">
        <div className="crp-company-code-label">Your company code</div>
        <Typography.Text className="crp-company-code" copyable={{ text: result.company_code, tooltips: ['Copy code', 'Copied'] }}>
          <span data-testid="company-code">{result.company_code}</span>
        </Typography.Text>
        <div className="crp-company-code-help">
          You need it every time you log in, together with your username and password. Colleagues use it to request access to{' '}
          <strong>{result.company_name}</strong>.
        </div>
      </div>
      <Alert type="warning" showIcon className="crp-form-alert" title="Keep this code somewhere safe. We also sent it to your e-mail address." />
      <ButtonLink to="/login" state={{ prefill }} type="primary" size="large" block>
        Go to Log In
      </ButtonLink>
    </div>
  );
}
