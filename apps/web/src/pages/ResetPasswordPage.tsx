import { useDocumentTitle } from '../lib/useDocumentTitle';
import { AuthLayout } from '../ui/AuthLayout';
import { ResetPasswordForm } from '../features/auth/ResetPasswordForm';

export function ResetPasswordPage() {
  useDocumentTitle('Choose a New Password');
  return (
    <AuthLayout title="Choose a new password" subtitle="At least 12 characters. A few unrelated words make a strong password.">
      <ResetPasswordForm />
    </AuthLayout>
  );
}
