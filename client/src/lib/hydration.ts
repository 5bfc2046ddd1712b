/**
 * Whether React is hydrating HTML that was rendered before any script ran (the marketing
 * pages, prerendered at build time: scripts/prerender-pages.ts). A component whose first render
 * depends on the browser (an observer, a media query, storage) renders as the build did while
 * this holds, so hydration finds the same markup; it stays true for the page the document was
 * loaded at, until the first navigation elsewhere.
 */
let hydratedPath: string | null = null;

/** Called by the entry before hydrating the document's prerendered page. */
export function startHydrating(pathname: string): void {
  hydratedPath = pathname;
}

export function isHydrating(): boolean {
  if (hydratedPath !== null && (typeof window === 'undefined' || window.location.pathname !== hydratedPath)) hydratedPath = null;
  return hydratedPath !== null;
}
