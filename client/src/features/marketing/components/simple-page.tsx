import type { ReactNode } from 'react';
import './marketing.css';

export interface SimplePageProps {
  eyebrow?: string;
  title: string;
  lead: string;
  children?: ReactNode;
  actions?: ReactNode;
}

/** A plain content page: eyebrow, heading, lead paragraph, body and actions. */
export function SimplePage({ eyebrow, title, lead, children, actions }: SimplePageProps) {
  return (
    <div className="page simple-page">
      <title>{`${title} · Mapfold`}</title>
      <div className="container">
        {eyebrow ? <span className="eyebrow">{eyebrow}</span> : null}
        <h1>{title}</h1>
        <p className="lead">{lead}</p>
        {children ? <div className="simple-page__body prose">{children}</div> : null}
        {actions ? <div className="simple-page__actions">{actions}</div> : null}
      </div>
    </div>
  );
}
