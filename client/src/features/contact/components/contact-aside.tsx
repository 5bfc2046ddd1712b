/** Beside the form: the other ways to reach the team, and what to expect. */
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export interface ContactAsideProps {
  teamEmail: string;
  custom: boolean;
  estimatePath: string;
}

function Item({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <li className="contact-aside__item">
      <span className="contact-aside__icon" aria-hidden="true">
        {icon}
      </span>
      <div>
        <h3 className="contact-aside__title">{title}</h3>
        {children}
      </div>
    </li>
  );
}

const icon = (d: string) => (
  <svg viewBox="0 0 24 24" width="20" height="20" focusable="false">
    <path d={d} fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

export function ContactAside({ teamEmail, custom, estimatePath }: ContactAsideProps) {
  const mailto = custom ? `mailto:${teamEmail}?subject=${encodeURIComponent('Custom work')}` : `mailto:${teamEmail}`;
  return (
    <aside className="contact-aside" aria-labelledby="contact-aside-heading">
      <h2 id="contact-aside-heading" className="contact-aside__heading">
        Other ways to reach us
      </h2>
      <ul className="contact-aside__list">
        <Item icon={icon('M3.5 6.5h17v11h-17zM3.5 7l8.5 6.5L20.5 7')} title="Email">
          <p>
            <a href={mailto}>{teamEmail}</a>
          </p>
        </Item>
        <Item icon={icon('M12 3.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17zM12 7.5V12l3 2')} title="Response time">
          <p>We answer every message within one business day, Monday to Friday.</p>
        </Item>
        <Item icon={icon('M9 5.5 3.5 7.5v11l5.5-2 6 2 5.5-2v-11l-5.5 2zM9 5.5v11M15 7.5v11')} title="Help with an existing map">
          <p>Include its link so we can look at it straight away.</p>
        </Item>
        <Item icon={icon('M4 20l4.5-1 10-10a2.1 2.1 0 0 0-3-3l-10 10zM13.5 7.5l3 3')} title="Custom work">
          <p>
            Want us to build your map? Get a ballpark price first on the <Link to={estimatePath}>estimate page</Link>.
          </p>
        </Item>
      </ul>
    </aside>
  );
}
