import { Outlet, useLocation } from 'react-router-dom';
import { VerifyEmailBanner } from '../../features/auth/components/verify-email-banner';
import { marketingPaths } from '../paths';
import { ExtendedFooter, MinimalFooter } from './footer';
import { Header } from './header';
import { RouteEffects } from './route-effects';
import './layout.css';

/**
 * Every page but the standalone map viewer: header, the e-mail verification banner (while the
 * address is unverified), the page (faded in), and the extended footer on marketing pages or
 * the minimal one elsewhere.
 */
export function MainLayout() {
  const { pathname } = useLocation();
  const marketing = marketingPaths.includes(pathname);
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <RouteEffects />
      <Header />
      <VerifyEmailBanner />
      <main id="main" className="app-main page-fade" key={pathname} tabIndex={-1}>
        <Outlet />
      </main>
      {marketing ? <ExtendedFooter /> : <MinimalFooter />}
    </div>
  );
}
