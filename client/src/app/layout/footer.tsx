import { Link } from 'react-router-dom';
import { LogoMark } from '../../components/logo';
import { CookieSettingsButton } from '../../features/consent/components/cookie-settings-button';
import { config } from '../../lib/config';
import { customWorkPath, paths } from '../../lib/paths';

interface FooterLink {
  label: string;
  to: string;
}

/** The extended footer's link groups (spec §2 Layout). */
export const FOOTER_GROUPS: { title: string; links: FooterLink[] }[] = [
  {
    title: 'Product',
    links: [
      { label: 'Pricing', to: paths.pricing },
      { label: 'Documentation', to: paths.docs },
    ],
  },
  {
    title: 'Examples',
    links: [
      { label: 'Real estate', to: paths.caseStudyRealEstate },
      { label: 'Retail', to: paths.caseStudyRetail },
      { label: 'Geographic', to: paths.caseStudyGeographic },
      { label: 'Wayfinding', to: paths.wayfinding },
    ],
  },
  {
    title: 'Legal',
    links: [
      { label: 'Privacy Policy', to: paths.privacy },
      { label: 'Terms & Conditions', to: paths.terms },
      { label: 'Service Agreement', to: paths.agreement },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'Contact', to: paths.contact },
      { label: 'Custom Work', to: customWorkPath },
    ],
  },
  {
    title: 'Platform',
    links: [
      { label: 'Login', to: paths.login },
      { label: 'Register', to: paths.register },
      { label: 'Reset password', to: paths.reset },
    ],
  },
];

export const STATUS_LINE = 'All systems operational.';

const SOCIAL: { name: string; href: string; icon: string }[] = [
  {
    name: 'Mapfold on LinkedIn',
    href: config.linkedinUrl,
    icon: 'M4.98 3.5a2.5 2.5 0 1 1 0 5 2.5 2.5 0 0 1 0-5zM3 9.75h4v11H3zm6.5 0h3.8v1.6h.06c.53-.95 1.83-1.95 3.77-1.95 4.03 0 4.77 2.5 4.77 5.76v5.59h-4v-4.96c0-1.18-.02-2.7-1.7-2.7-1.7 0-1.96 1.28-1.96 2.61v5.05h-4z',
  },
  {
    name: 'Mapfold on X',
    href: config.xUrl,
    icon: 'M17.75 3h3.07l-6.7 7.66L22 21h-6.17l-4.83-6.32L5.47 21H2.4l7.17-8.2L2 3h6.33l4.37 5.77zm-1.08 16.2h1.7L7.4 4.73H5.58z',
  },
  {
    name: 'Mapfold on YouTube',
    href: config.youtubeUrl,
    icon: 'M21.6 7.2a2.5 2.5 0 0 0-1.76-1.77C18.3 5 12 5 12 5s-6.3 0-7.84.43A2.5 2.5 0 0 0 2.4 7.2C2 8.75 2 12 2 12s0 3.25.4 4.8a2.5 2.5 0 0 0 1.76 1.77C5.7 19 12 19 12 19s6.3 0 7.84-.43a2.5 2.5 0 0 0 1.76-1.77C22 15.25 22 12 22 12s0-3.25-.4-4.8zM10 15V9l5.2 3z',
  },
];

/** The footer of the marketing pages: link groups, social links and the status line. */
export function ExtendedFooter() {
  return (
    <footer className="site-footer site-footer--extended">
      <div className="container">
        <div className="footer-grid">
          <div className="footer-brand">
            <Link to={paths.home} className="footer-brand__logo" aria-label="Mapfold home">
              <LogoMark size={32} />
              <span>Mapfold</span>
            </Link>
            <p>Custom interactive maps for business: floor plans, real estate, retail, geographic and wayfinding.</p>
            <ul className="footer-social" aria-label="Social links">
              {SOCIAL.map((link) => (
                <li key={link.name}>
                  <a href={link.href} aria-label={link.name} title={link.name} target="_blank" rel="noopener noreferrer">
                    <svg width="18" height="18" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
                      <path d={link.icon} />
                    </svg>
                  </a>
                </li>
              ))}
            </ul>
          </div>
          {FOOTER_GROUPS.map((group) => (
            <nav key={group.title} className="footer-group" aria-label={group.title}>
              <h2>{group.title}</h2>
              <ul>
                {group.links.map((link) => (
                  <li key={link.label}>
                    <Link to={link.to}>{link.label}</Link>
                  </li>
                ))}
              </ul>
            </nav>
          ))}
        </div>
        <div className="footer-bottom">
          <p className="site-footer__copy">© {new Date().getFullYear()} Mapfold. Interactive maps for business.</p>
          <CookieSettingsButton />
          <p className="footer-status">
            <span className="footer-status__dot" aria-hidden="true" />
            {STATUS_LINE}
          </p>
        </div>
      </div>
    </footer>
  );
}

/** The footer of every other page: Privacy and Terms. */
export function MinimalFooter() {
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <p className="site-footer__copy">© {new Date().getFullYear()} Mapfold. Interactive maps for business.</p>
        <nav aria-label="Legal" className="site-footer__links">
          <Link to={paths.privacy}>Privacy</Link>
          <Link to={paths.terms}>Terms</Link>
          <CookieSettingsButton />
        </nav>
      </div>
    </footer>
  );
}
