import { useDocumentTitle } from '../lib/useDocumentTitle';
import { AuthLayout } from '../ui/AuthLayout';
import { LoginForm } from '../features/auth/LoginForm';

export function LoginPage() {
  useDocumentTitle('Log In');
  return (
    <AuthLayout title="Log In" subtitle="Sign in with your username, password and company code.">
      <LoginForm />
    </AuthLayout>
  );
}
