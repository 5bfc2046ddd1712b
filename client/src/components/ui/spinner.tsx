import './spinner.css';

export interface SpinnerProps {
  /** What is being waited for, read by screen readers; '' for a purely decorative spinner. */
  label?: string;
  size?: 'sm' | 'md' | 'lg';
  className?: string;
}

/** A small rotating ring; announced politely as a status. */
export function Spinner({ label = 'Loading', size = 'md', className }: SpinnerProps) {
  const classes = ['spinner', `spinner--${size}`, className].filter(Boolean).join(' ');
  // An empty label makes it decorative: the surrounding text (or aria-busy) says what happens.
  if (!label) return <span aria-hidden="true" className={classes} />;
  return <span role="status" aria-label={label} className={classes} />;
}

/** A spinner centred in the page area, for whole-page waits (the session loading, a page's data). */
export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="page-spinner">
      <Spinner label={label} size="lg" />
    </div>
  );
}
