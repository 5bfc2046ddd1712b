import { useId } from 'react';
import { Link } from 'react-router-dom';
import './logo.css';

/** The Mapfold mark: a folded map. */
export function LogoMark({ size = 28 }: { size?: number }) {
  const gradient = `mapfold-logo-${useId().replace(/:/g, '')}`;
  return (
    <svg className="logo__mark" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradient} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#4f5dff" />
          <stop offset="1" stopColor="#7c3aed" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill={`url(#${gradient})`} />
      <path d="M6 9.5 12 7.5v15l-6 2z" fill="#fff" fillOpacity="0.95" />
      <path d="M12 7.5 20 9.5v15l-8-2z" fill="#fff" fillOpacity="0.7" />
      <path d="M20 9.5 26 7.5v15l-6 2z" fill="#fff" fillOpacity="0.95" />
      <circle cx="16" cy="14.5" r="2.2" fill="#4f5dff" />
    </svg>
  );
}

/** The logo: mark and wordmark, linking home. */
export function Logo({ to = '/' }: { to?: string }) {
  return (
    <Link to={to} className="logo" aria-label="Mapfold home">
      <LogoMark />
      <span className="logo__word">Mapfold</span>
    </Link>
  );
}
