import type { ReactNode } from 'react';
import './feature-card.css';

/** Feature cards are at least this tall, in pixels (spec §2 shared pieces). */
export const FEATURE_CARD_MIN_HEIGHT = 280;

export interface FeatureCardProps {
  /** A decorative icon or picture above the title. */
  icon?: ReactNode;
  title: ReactNode;
  children: ReactNode;
  /** Which heading the title is; h3 unless told. */
  level?: 2 | 3 | 4;
  className?: string;
}

/** A card presenting one feature: icon, title and a short text. */
export function FeatureCard({ icon, title, children, level = 3, className }: FeatureCardProps) {
  const Heading = `h${level}` as const;
  return (
    <article className={['card', 'feature-card', className].filter(Boolean).join(' ')} style={{ minHeight: FEATURE_CARD_MIN_HEIGHT }}>
      {icon ? (
        <div className="feature-card__icon" aria-hidden="true">
          {icon}
        </div>
      ) : null}
      <Heading className="feature-card__title">{title}</Heading>
      <div className="feature-card__text">{children}</div>
    </article>
  );
}
