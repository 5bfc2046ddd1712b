/**
 * Loads a page's chunk as soon as a link to it is pointed at, touched or focused, so that the
 * click usually finds it loaded (a pointer rests on a link for 100 ms or more before clicking).
 * One listener on the document serves every link of the app; a link elsewhere does nothing.
 */
import { useEffect } from 'react';
import { matchRoutes, type RouteObject } from 'react-router-dom';
import type { RouteHandle } from './lazy-page';

function preloadFor(routes: RouteObject[], target: EventTarget | null): void {
  if (!(target instanceof Element)) return;
  const link = target.closest('a[href]');
  if (!(link instanceof HTMLAnchorElement) || link.origin !== window.location.origin) return;
  for (const match of matchRoutes(routes, link.pathname) ?? []) {
    const handle = match.route.handle as RouteHandle | undefined;
    // A failed preload is tried again by the page itself, which shows its error then.
    handle?.preload?.().catch(() => {});
  }
}

export function usePreloadOnIntent(routes: RouteObject[]): void {
  useEffect(() => {
    const onIntent = (event: Event) => preloadFor(routes, event.target);
    const options = { passive: true, capture: true };
    for (const type of ['pointerover', 'focusin', 'touchstart'] as const) document.addEventListener(type, onIntent, options);
    return () => {
      for (const type of ['pointerover', 'focusin', 'touchstart'] as const) document.removeEventListener(type, onIntent, options);
    };
  }, [routes]);
}
