import { Outlet, useLocation } from 'react-router-dom';
import { VerifyEmailBanner } from '../../features/auth/components/verify-email-banner';
import { SubscribeModal } from '../../features/billing/subscribe-modal';
import { ConsentBanner } from '../../features/consent/components/consent-banner';
import { isWorkspacePath, marketingPaths } from '../../lib/paths';
import { ExtendedFooter, MinimalFooter } from './footer';
import { Header } from './header';
import { RouteEffects } from './route-effects';
import './layout.css';

/**
 * Every page but the standalone map viewer: header, the e-mail verification banner (while the
 * address is unverified), the page (faded in), and the extended footer on marketing pages or
 * the minimal one elsewhere; the map editor fills the window instead, with no footer.
 */
export function MainLayout() {
  const { pathname } = useLocation();
  const marketing = marketingPaths.includes(pathname);
  const workspace = isWorkspacePath(pathname);
  return (
    <div className={workspace ? 'app-shell app-shell--workspace' : 'app-shell'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <RouteEffects />
      <Header />
      <VerifyEmailBanner />
      <main id="main" className="app-main page-fade" key={pathname} tabIndex={-1}>
        <Outlet />
      </main>
      {workspace ? null : marketing ? <ExtendedFooter /> : <MinimalFooter />}
      {/* Spec §2: the #subscribe fragment opens the plans on any page. */}
      <SubscribeModal />
      {/* The editor fills the window; the banner asks on every other page (nothing is sent before). */}
      {workspace ? null : <ConsentBanner />}
    </div>
  );
}
