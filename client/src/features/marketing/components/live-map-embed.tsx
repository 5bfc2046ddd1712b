import { useEffect, useState, type CSSProperties } from 'react';
import './live-map-embed.css';

export interface LiveMapEmbedProps {
  /** The published viewer's address, `/m/{id}` (optionally `?location={id}`). */
  src: string;
  /** The map's name: the iframe's accessible name is "Map: {title}". */
  title: string;
  /** Width divided by height of the box; 16:10 unless told. The box keeps it, so nothing below jumps. */
  aspectRatio?: number;
  /**
   * Below the fold: the browser fetches the viewer only when it comes near the viewport. Above
   * the fold (false), the iframe is added after the page's first paint, so the page's own text
   * stays the largest contentful paint and the viewer never competes with it.
   */
  lazy?: boolean;
  /** A line under the map, next to the full-screen link. */
  caption?: string;
  className?: string;
}

/** Waits for the browser to be idle (or a short while where it cannot say), then answers true. */
function useAfterFirstPaint(enabled: boolean): boolean {
  const [ready, setReady] = useState(!enabled);
  useEffect(() => {
    if (!enabled) return;
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(() => setReady(true), { timeout: 1200 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(() => setReady(true), 200);
    return () => window.clearTimeout(timer);
  }, [enabled]);
  return ready;
}

/**
 * A live, interactive map from the published viewer, embedded the way customers embed it on
 * their own sites (features/viewer/embed.ts makes the same box and iframe as a snippet).
 */
export function LiveMapEmbed({ src, title, aspectRatio = 16 / 10, lazy = true, caption, className }: LiveMapEmbedProps) {
  const ready = useAfterFirstPaint(!lazy);
  const style = { '--live-map-ratio': String(aspectRatio) } as CSSProperties;
  return (
    <figure className={['live-map', className].filter(Boolean).join(' ')}>
      <div className="live-map__frame" style={style}>
        {ready ? (
          <iframe src={src} title={`Map: ${title}`} loading={lazy ? 'lazy' : 'eager'} allow="fullscreen" allowFullScreen />
        ) : (
          <div className="live-map__placeholder" aria-hidden="true" />
        )}
      </div>
      <figcaption className="live-map__bar">
        <span className="live-map__live">
          <span className="live-map__dot" aria-hidden="true" />
          {caption ?? 'Live map: pan, zoom and tap a place'}
        </span>
        {/* A plain link: the viewer is its own page outside the app's router. */}
        <a className="live-map__open" href={src} target="_blank" rel="noopener">
          Open full screen
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
            <path d="M8 4H4v12h12v-4M11 4h5v5M16 4l-7 7" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </a>
      </figcaption>
    </figure>
  );
}
