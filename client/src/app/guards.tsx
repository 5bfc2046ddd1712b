/**
 * Route guards (spec §2): signed-in-only pages send a signed-out visitor to /login, carrying
 * the page they wanted in router state; signed-out-only pages (login, register, reset) send a
 * signed-in user on, to that carried page or else to /maps. Nothing is decided while the
 * session is still loading. Admin-only pages are signed-in-only pages that others cannot see.
 */
import { Navigate, Outlet, useLocation, type Location } from 'react-router-dom';
import { PageSpinner } from '../components/ui/spinner';
import { paths } from '../lib/paths';
import { useSession } from '../lib/session';
import { loggingOutHere } from './logout-intent';
import { NotFoundPage } from './routes/not-found';

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
  if (status === 'signedOut') return <SignedOutRedirect location={location} />;
  return <Outlet />;
}

/** A signed-out visitor logs in first; one who just pressed Log out here goes home. */
function SignedOutRedirect({ location }: { location: Location }) {
  if (loggingOutHere()) return <Navigate to={paths.home} replace />;
  const state: FromState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
  return <Navigate to={paths.login} replace state={state} />;
}

/**
 * Admin-only pages (spec §6): a signed-out visitor logs in first, as for signed-in-only pages;
 * a signed-in user without the admin claim sees the 404 page (the page does not exist for them).
 */
export function RequireAdmin() {
  const { status, admin } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageSpinner label="Checking your session" />;
  if (status === 'signedOut') return <SignedOutRedirect location={location} />;
  if (!admin) return <NotFoundPage />;
  return <Outlet />;
}

export function RequireSignedOut() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageSpinner label="Checking your session" />;
  // `?licence=1` (the landing page's marketplace offer) follows the new account to /maps, which then shows how to register the code.
  const landing = new URLSearchParams(location.search).get('licence') === '1' ? `${paths.maps}?licence=1` : paths.maps;
  if (status === 'signedIn') return <Navigate to={fromOf(location.state) ?? landing} replace />;
  return <Outlet />;
}
