import { useState } from 'react';
import { App, Button, Card, Radio, Tag } from 'antd';
import { MailOutlined, MobileOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import type { TwoFaMethod } from '@crp/contracts';
import { configureMultifactor, type ConfigureMfaResult, type VerifyMfaResult } from '../../api/accounts';
import { queryKeys } from '../../api/queryKeys';
import { useAuth } from '../../lib/AuthProvider';
import { useQrDataUrl } from './useQrDataUrl';
import { DisableTwoFactorModal } from './DisableTwoFactorModal';
import { VerifyTwoFactorModal } from './VerifyTwoFactorModal';
import { RecoveryCodesModal } from './RecoveryCodesModal';
import { RecoveryCodesSection } from './RecoveryCodesSection';

export const OVERRIDE_WARNING = 'This will override any existing 2FA setup. Do you want to continue?';
export const SETUP_OK = '2FA code generated successfully';
export const SETUP_FAILED = 'Failed to generate 2FA setup. Try again.';

const METHODS: { value: TwoFaMethod; title: string; text: string; icon: React.ReactNode }[] = [
  {
    value: 'app',
    title: 'Authenticator app',
    text: 'Google Authenticator, Microsoft Authenticator, 1Password or any TOTP app. Works offline.',
    icon: <MobileOutlined />,
  },
  { value: 'email', title: 'E-mail code', text: 'We e-mail you a 6-digit code each time you log in.', icon: <MailOutlined /> },
];

/** The 2FA setup flow (spec 000 §4): choose, confirm the override, request the setup, verify, go to /location. */
export function TwoFactorSetupCard() {
  const { user } = useAuth();
  const { modal, message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [method, setMethod] = useState<TwoFaMethod>('app');
  const [setup, setSetup] = useState<ConfigureMfaResult['data'] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const [newCodes, setNewCodes] = useState<string[] | null>(null);
  const qrDataUrl = useQrDataUrl(setup?.method === 'app' ? setup.uri : undefined);

  const request = useMutation({
    mutationFn: (m: TwoFaMethod) => configureMultifactor(m),
    onSuccess: (res) => {
      void message.success(SETUP_OK);
      setSetup(res.data);
    },
    onError: () => {
      void message.error(SETUP_FAILED);
    },
  });

  const start = () => {
    modal.confirm({
      title: 'Set up two-factor authentication',
      content: OVERRIDE_WARNING,
      okText: 'Continue',
      cancelText: 'Cancel',
      icon: <SafetyCertificateOutlined style={{ color: '#d97706' }} />,
      onOk: () => request.mutateAsync(method).catch(() => undefined),
    });
  };

  const onVerified = (result: VerifyMfaResult) => {
    setSetup(null);
    void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
    void queryClient.invalidateQueries({ queryKey: ['accounts', 'recovery-codes'] });
    // Turning 2FA on answers the recovery codes once: show them before moving on.
    if (result.recovery_codes?.length) setNewCodes(result.recovery_codes);
    else navigate('/location');
  };

  const onDisabled = () => {
    setDisabling(false);
    void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
  };

  const enabled = user?.is_2fa_enabled ?? false;
  const currentMethod = enabled ? (user?.twofa_method ?? null) : null;
  const current = user?.twofa_method === 'email' ? 'e-mail code' : 'authenticator app';

  return (
    <Card
      className="crp-card"
      title={
        <span className="crp-card-title">
          <SafetyCertificateOutlined /> Two-factor authentication
        </span>
      }
      extra={
        user ? (
          enabled ? (
            <Tag color="green" data-testid="twofa-status">
              On: {current}
            </Tag>
          ) : (
            <Tag color="orange" data-testid="twofa-status">
              Off
            </Tag>
          )
        ) : null
      }
    >
      <p className="crp-muted">
        {enabled
          ? 'Your account asks for a second code at login. You can switch method or re-pair a new device below (with your password and a code of your current method).'
          : 'Protect your account with a second step at login. Choose how you want to receive your 6-digit code.'}
      </p>
      <Radio.Group className="crp-method-group" value={method} onChange={(e) => setMethod(e.target.value as TwoFaMethod)} aria-label="2FA method">
        {METHODS.map((m) => (
          <Radio key={m.value} value={m.value} className={method === m.value ? 'crp-method crp-method-active' : 'crp-method'}>
            <span className="crp-method-icon" aria-hidden="true">
              {m.icon}
            </span>
            <span className="crp-method-text">
              <strong>{m.title}</strong>
              <span>{m.text}</span>
            </span>
          </Radio>
        ))}
      </Radio.Group>
      <div className="crp-card-actions">
        <Button type="primary" size="large" onClick={start} loading={request.isPending}>
          {enabled ? 'Set up again' : 'Set up 2FA'}
        </Button>
        {currentMethod && (
          <Button size="large" danger onClick={() => setDisabling(true)}>
            Turn off 2FA
          </Button>
        )}
      </div>
      {currentMethod && <RecoveryCodesSection method={currentMethod} username={user?.username} />}
      <RecoveryCodesModal
        codes={newCodes}
        username={user?.username}
        onClose={() => {
          setNewCodes(null);
          navigate('/location');
        }}
      />
      <VerifyTwoFactorModal setup={setup} qrDataUrl={qrDataUrl} onClose={() => setSetup(null)} onVerified={onVerified} currentMethod={currentMethod} />
      {currentMethod && <DisableTwoFactorModal open={disabling} currentMethod={currentMethod} onClose={() => setDisabling(false)} onDisabled={onDisabled} />}
    </Card>
  );
}
