import { Outlet, useLocation } from 'react-router-dom';
import { Footer } from './footer';
import { Header } from './header';
import { RouteEffects } from './route-effects';
import './layout.css';

/** Every page but the standalone map viewer: header, the page (faded in), footer. */
export function MainLayout() {
  const { pathname } = useLocation();
  return (
    <div className="app-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <RouteEffects />
      <Header />
      <main id="main" className="app-main page-fade" key={pathname} tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
