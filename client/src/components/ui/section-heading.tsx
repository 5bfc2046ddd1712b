import type { ReactNode } from 'react';
import './section-heading.css';

export interface SectionHeadingProps {
  title: ReactNode;
  /** The small uppercase line above the title. */
  eyebrow?: ReactNode;
  /** A sentence or two under the title. */
  lead?: ReactNode;
  /** Which heading the title is, h1 to h4; h2 unless told. */
  level?: 1 | 2 | 3 | 4;
  align?: 'start' | 'center';
  /** For aria-labelledby on the section it heads. */
  id?: string;
  className?: string;
}

/** A section's eyebrow, heading and lead. */
export function SectionHeading({ title, eyebrow, lead, level = 2, align = 'start', id, className }: SectionHeadingProps) {
  const Heading = `h${level}` as const;
  const classes = ['section-heading', `section-heading--${align}`, className].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      {eyebrow ? <p className="eyebrow section-heading__eyebrow">{eyebrow}</p> : null}
      <Heading id={id} className="section-heading__title">
        {title}
      </Heading>
      {lead ? <p className="lead section-heading__lead">{lead}</p> : null}
    </div>
  );
}
