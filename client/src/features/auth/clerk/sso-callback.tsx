/**
 * Where Clerk sends the browser back after "Continue with Google": Clerk finishes the sign-in
 * (or sign-up), then the session is read again and the user goes on to their maps.
 */
import { useNavigate } from 'react-router-dom';
import { PageSpinner } from '../../../components/ui/spinner';
import { HandleSSOCallback } from '../../../lib/clerk';
import { useSession } from '../../../lib/session';

export default function SsoCallback() {
  const navigate = useNavigate();
  const { refresh } = useSession();
  return (
    <>
      <PageSpinner label="Signing you in" />
      <HandleSSOCallback
        navigateToApp={() => {
          void refresh().then(() => navigate('/maps', { replace: true }));
        }}
        navigateToSignIn={() => void navigate('/login', { replace: true })}
        navigateToSignUp={() => void navigate('/register', { replace: true })}
      />
    </>
  );
}
