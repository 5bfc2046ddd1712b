import type { ReactNode } from 'react';
import { LogoMark } from '../../../components/logo';
import './auth.css';

/** The frame of the login, register and reset pages: a centred card under a short heading. */
export function AuthCard({ title, subtitle, children, footer }: { title: string; subtitle: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="auth-page">
      <div className="auth-card card">
        <div className="auth-card__head">
          <LogoMark size={40} />
          <h1>{title}</h1>
          <p>{subtitle}</p>
        </div>
        {children}
      </div>
      {footer ? <p className="auth-page__footer">{footer}</p> : null}
    </div>
  );
}
