import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { ButtonSize, ButtonVariant } from './button';
import { isInternalPath } from './link-card';
import './button.css';

export interface LinkButtonProps {
  /** An internal path becomes a router link; anything else a plain link. */
  to: string;
  children: ReactNode;
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  /** Renders a disabled button instead of a link: nothing to follow, not in the tab order. */
  disabled?: boolean;
  /** Opens an external link in a new tab. */
  newTab?: boolean;
  className?: string;
}

/** A link styled as a button, which becomes a disabled button when disabled (spec §2 shared pieces). */
export function LinkButton({ to, children, variant = 'primary', size = 'md', block = false, disabled = false, newTab = false, className }: LinkButtonProps) {
  const classes = ['btn', `btn--${variant}`, `btn--${size}`, block ? 'btn--block' : '', className].filter(Boolean).join(' ');
  if (disabled) {
    return (
      <button type="button" className={classes} disabled aria-disabled="true">
        {children}
      </button>
    );
  }
  if (isInternalPath(to)) {
    return (
      <Link to={to} className={classes}>
        {children}
      </Link>
    );
  }
  return (
    <a href={to} className={classes} {...(newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
      {children}
    </a>
  );
}
