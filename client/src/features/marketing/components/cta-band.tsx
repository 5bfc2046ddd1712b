import type { ReactNode } from 'react';
import './marketing.css';

export interface CtaBandProps {
  title: ReactNode;
  text: ReactNode;
  /** The heading's id, when the surrounding section is labelled by it. */
  titleId?: string;
  className?: string;
  /** The actions: a secondary button first, then ghost ones (styled light on the dark band). */
  children: ReactNode;
}

/** The dark closing band of the marketing pages: a heading, a line of text and its actions. */
export function CtaBand({ title, text, titleId, className, children }: CtaBandProps) {
  return (
    <div className={['cta-band', className].filter(Boolean).join(' ')}>
      <div>
        <h2 id={titleId}>{title}</h2>
        <p>{text}</p>
      </div>
      <div className="cta-band__actions">{children}</div>
    </div>
  );
}
