import { useDocumentTitle } from '../lib/useDocumentTitle';
import { AuthLayout } from '../ui/AuthLayout';
import { ForgotPasswordForm } from '../features/auth/ForgotPasswordForm';

export function ForgotPasswordPage() {
  useDocumentTitle('Forgot Password');
  return (
    <AuthLayout title="Forgot your password?" subtitle="We e-mail you a link to choose a new one.">
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
