import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { isHydrating } from '../../lib/hydration';
import { prefersReducedMotion, SCROLL_IN_SECONDS } from './motion';
import './scroll-in.css';

export type ScrollInAnimation = 'fade-up' | 'fade-in';

export interface ScrollInProps {
  children: ReactNode;
  animation?: ScrollInAnimation;
  /** Animate only the first time it comes into view (the default); false replays it each time. */
  once?: boolean;
  /** Seconds to wait before animating, to stagger a row of items. */
  delay?: number;
  className?: string;
}

/**
 * Whether the content can wait hidden for the observer: not without IntersectionObserver, not
 * for reduced motion, and not in a page painted before its script (shown already, as built).
 */
function canAnimate(): boolean {
  return typeof IntersectionObserver === 'function' && !prefersReducedMotion() && !isHydrating();
}

/**
 * Fades its content in as it scrolls into view (spec §9: 0.4 s, once by default). Without
 * IntersectionObserver, or when the person prefers reduced motion, the content shows at once.
 */
export function ScrollIn({ children, animation = 'fade-up', once = true, delay = 0, className }: ScrollInProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [animated] = useState(canAnimate);
  const [visible, setVisible] = useState(() => !animated);

  useEffect(() => {
    const element = ref.current;
    if (!animated || !element) return;
    const observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          setVisible(true);
          if (once) observer.disconnect();
        } else if (!once) {
          setVisible(false);
        }
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [animated, once]);

  const classes = [
    'scroll-in',
    animated ? `scroll-in--${animation}` : 'scroll-in--static',
    visible ? 'scroll-in--visible' : '',
    className,
  ]
    .filter(Boolean)
    .join(' ');
  const style = animated
    ? ({ '--scroll-in-duration': `${SCROLL_IN_SECONDS}s`, '--scroll-in-delay': `${delay}s` } as CSSProperties)
    : undefined;
  return (
    <div ref={ref} className={classes} style={style} data-visible={visible}>
      {children}
    </div>
  );
}

export type ScrollInWrapperProps = Omit<ScrollInProps, 'animation'>;

/** Rises a little while fading in. */
export function FadeUp(props: ScrollInWrapperProps) {
  return <ScrollIn {...props} animation="fade-up" />;
}

/** Fades in where it stands. */
export function FadeIn(props: ScrollInWrapperProps) {
  return <ScrollIn {...props} animation="fade-in" />;
}
