import { useDocumentTitle } from '../lib/useDocumentTitle';
import { useState } from 'react';
import { AuthLayout } from '../ui/AuthLayout';
import { RegisterForm } from '../features/auth/RegisterForm';
import { RegistrationResult } from '../features/auth/RegistrationResult';
import type { RegisterResult } from '../api/accounts';

export function RegisterPage() {
  useDocumentTitle('Create Account');
  const [result, setResult] = useState<RegisterResult | null>(null);
  return (
    <AuthLayout
      title={result ? 'Welcome aboard' : 'Create Account'}
      subtitle={result ? undefined : 'Set up your company workspace, or join one with a company code.'}
    >
      {result ? <RegistrationResult result={result} /> : <RegisterForm onRegistered={setResult} />}
    </AuthLayout>
  );
}
