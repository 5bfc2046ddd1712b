import type { ReactNode } from 'react';
import './checklist-item.css';

export interface ChecklistItemProps {
  children: ReactNode;
  /** false marks a feature the plan does not have: a muted cross, and 'Not included' for screen readers. */
  included?: boolean;
  className?: string;
}

/** One line of a plan's feature list: a check (or a muted cross) and the text. */
export function ChecklistItem({ children, included = true, className }: ChecklistItemProps) {
  const classes = ['checklist-item', included ? '' : 'checklist-item--excluded', className].filter(Boolean).join(' ');
  return (
    <li className={classes}>
      <svg className="checklist-item__icon" viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
        <path
          d={included ? 'm4.5 10.5 3.5 3.5 7.5-8' : 'm6 6 8 8m0-8-8 8'}
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="checklist-item__text">
        {included ? null : <span className="visually-hidden">Not included: </span>}
        {children}
      </span>
    </li>
  );
}

/** The list a set of ChecklistItems goes in. */
export function Checklist({ children, label, className }: { children: ReactNode; label?: string; className?: string }) {
  return (
    <ul className={['checklist', className].filter(Boolean).join(' ')} aria-label={label}>
      {children}
    </ul>
  );
}
