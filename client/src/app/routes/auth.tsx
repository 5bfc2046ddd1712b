import { Link, useLocation } from 'react-router-dom';
import { AuthCard } from '../../features/auth/components/auth-card';
import { LoginForm } from '../../features/auth/components/login-form';
import { RegisterForm } from '../../features/auth/components/register-form';
import { ButtonLink } from '../../components/ui/button';
import { paths } from '../paths';

export function LoginPage() {
  // Keep the page the visitor wanted when they switch to sign up.
  const { state } = useLocation();
  return (
    <AuthCard
      title="Welcome back"
      subtitle="Log in to build and publish your maps."
      footer={
        <>
          New to Mapfold?{' '}
          <Link to={paths.register} state={state}>
            Create an account
          </Link>
        </>
      }
    >
      <title>Log in · Mapfold</title>
      <LoginForm
        resetLink={
          <Link to={paths.reset} className="auth-form__link">
            Forgot your password?
          </Link>
        }
      />
    </AuthCard>
  );
}

export function RegisterPage() {
  const { state } = useLocation();
  return (
    <AuthCard
      title="Create your account"
      subtitle="Start with two free test maps. No card needed."
      footer={
        <>
          Already have an account?{' '}
          <Link to={paths.login} state={state}>
            Log in
          </Link>
        </>
      }
    >
      <title>Sign up · Mapfold</title>
      <RegisterForm />
    </AuthCard>
  );
}

export function ResetPage() {
  return (
    <AuthCard title="Reset your password" subtitle="Locked out? We will get you back to your maps.">
      <title>Reset password · Mapfold</title>
      <div className="auth-form">
        <p className="muted">
          Password reset by email is on its way. Until then, send us a message from the contact page with the email address you signed up
          with, and we will reset your password by hand, usually within one business day.
        </p>
        <ButtonLink to={paths.contact} block size="lg">
          Contact us
        </ButtonLink>
        <ButtonLink to={paths.login} block variant="ghost">
          Back to login
        </ButtonLink>
      </div>
    </AuthCard>
  );
}
