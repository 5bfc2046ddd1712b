/**
 * Route guards (spec §2): signed-in-only pages send a signed-out visitor to /login, carrying
 * the page they wanted in router state; signed-out-only pages (login, register, reset) send a
 * signed-in user on, to that carried page or else to /maps. Nothing is decided while the
 * session is still loading.
 */
import { Navigate, Outlet, useLocation, type Location } from 'react-router-dom';
import { PageSpinner } from '../components/ui/spinner';
import { useSession } from '../lib/session';
import { paths } from './paths';

/** What a guard puts in router state when it sends a visitor to log in. */
export interface FromState {
  from: Pick<Location, 'pathname' | 'search' | 'hash'>;
}

function fromOf(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('from' in state)) return null;
  const from = (state as { from: unknown }).from;
  if (typeof from !== 'object' || from === null) return null;
  const { pathname, search = '', hash = '' } = from as Partial<Location>;
  // Only a path inside the app: never an address elsewhere.
  if (typeof pathname !== 'string' || !pathname.startsWith('/') || pathname.startsWith('//')) return null;
  return `${pathname}${typeof search === 'string' ? search : ''}${typeof hash === 'string' ? hash : ''}`;
}

export function RequireSignedIn() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageSpinner label="Checking your session" />;
  if (status === 'signedOut') {
    const state: FromState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
    return <Navigate to={paths.login} replace state={state} />;
  }
  return <Outlet />;
}

export function RequireSignedOut() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageSpinner label="Checking your session" />;
  if (status === 'signedIn') return <Navigate to={fromOf(location.state) ?? paths.maps} replace />;
  return <Outlet />;
}
