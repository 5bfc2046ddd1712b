import type { ReactNode } from 'react';
import './alert.css';

/** A message the user must notice (a failed action), announced at once by screen readers. */
export function Alert({ children, tone = 'error', title }: { children: ReactNode; tone?: 'error' | 'info' | 'success'; title?: string }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={`alert alert--${tone}`}>
      {title ? <p className="alert__title">{title}</p> : null}
      <div>{children}</div>
    </div>
  );
}
