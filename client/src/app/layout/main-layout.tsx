import { lazy, Suspense } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { PageSpinner } from '../../components/ui/spinner';
import { ConsentBanner } from '../../features/consent/components/consent-banner';
import { isHydrating } from '../../lib/hydration';
import { isWorkspacePath, marketingPaths, SUBSCRIBE_HASH } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { SessionGate } from '../session/session-gate';
import { ExtendedFooter, MinimalFooter } from './footer';
import { Header } from './header';
import { RouteEffects } from './route-effects';
import './layout.css';

// Both need the account API (and the modal the live billing): loaded only when shown.
const loadBanner = () => import('../../features/auth/components/verify-email-banner');
const VerifyEmailBanner = lazy(() => loadBanner().then((module) => ({ default: module.VerifyEmailBanner })));
const loadSubscribeModal = () => import('../../features/billing/subscribe-modal');
const SubscribeModal = lazy(() => loadSubscribeModal().then((module) => ({ default: module.SubscribeModal })));

/**
 * Every page but the standalone map viewer: header, the e-mail verification banner (while the
 * address is unverified), the page (faded in), and the extended footer on marketing pages or
 * the minimal one elsewhere; the map editor fills the window instead, with no footer.
 */
export function MainLayout() {
  const { pathname, hash } = useLocation();
  const { status, user } = useSession();
  const unverified = status === 'signedIn' && user !== null && !user.emailVerified;
  const marketing = marketingPaths.includes(pathname);
  const workspace = isWorkspacePath(pathname);
  return (
    <div className={workspace ? 'app-shell app-shell--workspace' : 'app-shell'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <RouteEffects />
      <Header />
      {unverified ? (
        <Suspense fallback={null}>
          <VerifyEmailBanner />
        </Suspense>
      ) : null}
      {/* Around the keyed <main>: on a route change to a page not loaded yet, the old page stays until it is. */}
      <Suspense fallback={<PageSpinner label="Loading" />}>
        {/* The fade is between pages: a page painted before its script (prerendered) is the first, and shows at once. */}
        <main id="main" className={isHydrating() || typeof window === 'undefined' ? 'app-main' : 'app-main page-fade'} key={pathname} tabIndex={-1}>
          <Outlet />
        </main>
      </Suspense>
      {workspace ? null : marketing ? <ExtendedFooter /> : <MinimalFooter />}
      {/* Spec §2: the #subscribe fragment opens the plans on any page. */}
      {hash === SUBSCRIBE_HASH ? (
        <Suspense fallback={null}>
          <SessionGate preload={loadSubscribeModal} fallback={null}>
            <SubscribeModal />
          </SessionGate>
        </Suspense>
      ) : null}
      {/* The editor fills the window; the banner asks on every other page (nothing is sent before). */}
      {workspace ? null : <ConsentBanner />}
    </div>
  );
}
