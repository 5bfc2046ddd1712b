import type { CSSProperties, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import './link-card.css';

export interface LinkCardProps {
  /** An internal path ('/pricing') becomes a router link; anything else a plain link. */
  to: string;
  title: ReactNode;
  /** The card's background picture, a URL. */
  image?: string;
  /** The same picture at double resolution, for high-density screens. */
  image2x?: string;
  /** Which side the arrow sits on. */
  arrow?: 'left' | 'right';
  /** Opens an external link in a new tab. */
  newTab?: boolean;
  className?: string;
}

/** Whether a target is a path inside this app rather than another site. */
export function isInternalPath(to: string): boolean {
  return to.startsWith('/') && !to.startsWith('//');
}

function Arrow({ side }: { side: 'left' | 'right' }) {
  return (
    <svg className="link-card__arrow" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d={side === 'left' ? 'M19 12H5m6-6-6 6 6 6' : 'M5 12h14m-6-6 6 6-6 6'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** A card with a title over a background picture; the whole card is one link (spec §2 shared pieces). */
export function LinkCard({ to, title, image, image2x, arrow = 'left', newTab = false, className }: LinkCardProps) {
  const classes = ['link-card', `link-card--arrow-${arrow}`, className].filter(Boolean).join(' ');
  // With a double-resolution copy the stylesheet lets the browser pick one of the two
  // (image-set, through a custom property), so only one is ever downloaded.
  const style: CSSProperties | undefined = image
    ? image2x
      ? ({ '--link-card-image-set': `image-set(url("${image}") 1x, url("${image2x}") 2x)` } as CSSProperties)
      : { backgroundImage: `url("${image}")` }
    : undefined;
  const content = (
    <>
      {arrow === 'left' ? <Arrow side="left" /> : null}
      <span className="link-card__title">{title}</span>
      {arrow === 'right' ? <Arrow side="right" /> : null}
    </>
  );
  if (isInternalPath(to)) {
    return (
      <Link to={to} className={classes} style={style}>
        {content}
      </Link>
    );
  }
  return (
    <a href={to} className={classes} style={style} {...(newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
      {content}
    </a>
  );
}
