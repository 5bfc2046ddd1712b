import { lazy, Suspense } from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { ButtonLink } from '../../components/ui/button';
import { PageSpinner } from '../../components/ui/spinner';
import { AuthCard } from '../../features/auth/components/auth-card';
import { LoginForm } from '../../features/auth/components/login-form';
import { RegisterForm } from '../../features/auth/components/register-form';
import { NewPasswordForm, ResetRequestForm } from '../../features/auth/components/reset-forms';
import { VerifyEmailStatus } from '../../features/auth/components/verify-email-status';
import { paths } from '../../lib/paths';
import { pendingInvitation } from '../../lib/pending-invitation';
import { useSession } from '../../lib/session';

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

/**
 * /reset: without a token, the e-mail form that sends a reset link; with the e-mailed
 * `?token=...`, the new-password form, which signs in and goes on to /maps.
 */
export function ResetPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get('token');
  const backToLogin = (
    <ButtonLink to={paths.login} block variant="ghost">
      Back to login
    </ButtonLink>
  );
  if (token) {
    return (
      <AuthCard title="Choose a new password" subtitle="Pick a password you do not use anywhere else.">
        <title>Choose a new password · Mapfold</title>
        <NewPasswordForm
          token={token}
          onDone={() => void navigate(paths.maps, { replace: true })}
          footer={
            <Link to={paths.reset} className="auth-form__link auth-form__link--center">
              Ask for a new reset link
            </Link>
          }
        />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Reset your password" subtitle="Enter your email address and we will send you a link to choose a new password.">
      <title>Reset password · Mapfold</title>
      <ResetRequestForm footer={backToLogin} />
    </AuthCard>
  );
}

/** /verify-email?token=...: the link in the verification e-mail (any visitor, signed in or not). */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const { status } = useSession();
  // Someone invited to a map (issue 16) verifies before they may join: the page leads back to the invitation.
  const invitation = pendingInvitation();
  return (
    <AuthCard title="Email verification" subtitle="Confirming the address on your Mapfold account.">
      <title>Verify email · Mapfold</title>
      <VerifyEmailStatus
        token={params.get('token')}
        verifiedActions={
          invitation ? (
            <ButtonLink to={paths.invitation.to(invitation)} block size="lg">
              Open the map you were invited to
            </ButtonLink>
          ) : (
            <ButtonLink to={paths.maps} block size="lg">
              Go to your maps
            </ButtonLink>
          )
        }
        failedActions={
          status === 'signedIn' ? (
            <p className="muted">Use the Resend button at the top of the page to get a new link.</p>
          ) : (
            <ButtonLink to={paths.login} block size="lg">
              Log in
            </ButtonLink>
          )
        }
      />
    </AuthCard>
  );
}

const SsoCallback = lazy(() => import('../../features/auth/clerk/sso-callback'));

/** Where Clerk returns after "Continue with Google"; only Clerk mode has it. */
export function SsoCallbackPage() {
  const { mode } = useSession();
  if (mode !== 'clerk') return <Navigate to={paths.login} replace />;
  return (
    <Suspense fallback={<PageSpinner label="Signing you in" />}>
      <SsoCallback />
    </Suspense>
  );
}
