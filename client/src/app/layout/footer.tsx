import { Link } from 'react-router-dom';
import { paths } from '../paths';

/** The minimal footer (the extended marketing footer of spec §2 comes later). */
export function Footer() {
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <p className="site-footer__copy">© {new Date().getFullYear()} Mapfold. Interactive maps for business.</p>
        <nav aria-label="Legal" className="site-footer__links">
          <Link to={paths.privacy}>Privacy</Link>
          <Link to={paths.terms}>Terms</Link>
        </nav>
      </div>
    </footer>
  );
}
