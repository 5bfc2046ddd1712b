import { useEffect, useId, useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { AvatarLink } from '../../components/avatar';
import { Logo } from '../../components/logo';
import { Alert } from '../../components/ui/alert';
import { Button, ButtonLink } from '../../components/ui/button';
import { paths, pathsWithoutNav } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { beginLogout } from '../logout-intent';
import { useNavigateAndWait } from '../use-navigate-and-wait';

function MenuIcon({ open }: { open: boolean }) {
  return (
    <svg width="20" height="20" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      {open ? (
        <path d="M5 5l10 10M15 5 5 15" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      ) : (
        <path d="M3 6h14M3 10h14M3 14h14" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
      )}
    </svg>
  );
}

/** The sticky site header: logo, main navigation (a toggle menu on small screens), account. */
export function Header() {
  const { status, user, admin, logout } = useSession();
  const location = useLocation();
  const navigateAndWait = useNavigateAndWait();
  const [menuOpen, setMenuOpen] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const [logoutError, setLogoutError] = useState<string | null>(null);
  const navId = useId();
  const showNav = !pathsWithoutNav.includes(location.pathname);
  const signedIn = status === 'signedIn' && user !== null;

  // A link followed from the open menu closes it.
  useEffect(() => {
    setMenuOpen(false);
  }, [location.pathname]);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  const onLogout = async () => {
    setLoggingOut(true);
    setLogoutError(null);
    // The session ends first, the page says so after: a person who closes the tab or opens
    // another page as soon as the header reads signed out must find the session over. Until
    // the server answers, the button spins and stays disabled. A signed-in-only page's guard
    // sends this tab home rather than to /login meanwhile (logout-intent.ts).
    const done = beginLogout();
    try {
      const error = await logout();
      if (error) {
        setLogoutError(error.message);
        return;
      }
      await navigateAndWait(paths.home);
    } finally {
      done();
      setLoggingOut(false);
    }
  };

  const navClass = ({ isActive }: { isActive: boolean }) => (isActive ? 'site-nav__link is-active' : 'site-nav__link');

  return (
    <header className="site-header">
      <div className="container site-header__inner">
        <Logo to={paths.home} />
        {showNav ? (
          <>
            <button
              type="button"
              className="nav-toggle"
              aria-expanded={menuOpen}
              aria-controls={navId}
              onClick={() => setMenuOpen((open) => !open)}
            >
              <MenuIcon open={menuOpen} />
              <span className="visually-hidden">{menuOpen ? 'Close menu' : 'Open menu'}</span>
            </button>
            <nav id={navId} aria-label="Main" className={menuOpen ? 'site-nav is-open' : 'site-nav'}>
              <ul className="site-nav__links">
                {signedIn ? (
                  <li>
                    <NavLink to={paths.maps} className={navClass}>
                      Maps
                    </NavLink>
                  </li>
                ) : null}
                {signedIn && admin ? (
                  <li>
                    <NavLink to={paths.adminMaps} className={navClass}>
                      Admin
                    </NavLink>
                  </li>
                ) : null}
                <li>
                  <NavLink to={paths.pricing} className={navClass}>
                    Pricing
                  </NavLink>
                </li>
                <li>
                  <NavLink to={paths.contact} className={navClass}>
                    Contact
                  </NavLink>
                </li>
              </ul>
              <div className="site-nav__actions">
                {status === 'signedOut' ? (
                  <>
                    <Link to={paths.login} className="site-nav__link">
                      Login
                    </Link>
                    <ButtonLink to={paths.register} size="sm">
                      Sign up
                    </ButtonLink>
                  </>
                ) : null}
                {signedIn ? (
                  <Button variant="secondary" size="sm" onClick={() => void onLogout()} loading={loggingOut}>
                    Log out
                  </Button>
                ) : null}
              </div>
            </nav>
            {signedIn ? <AvatarLink to={paths.account} displayName={user.displayName} admin={admin} /> : null}
          </>
        ) : null}
      </div>
      {logoutError ? (
        <div className="container site-header__alert">
          <Alert title="Could not log out">{logoutError}</Alert>
        </div>
      ) : null}
    </header>
  );
}
