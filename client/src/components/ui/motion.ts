/** Animation timings shared by the interface (spec §9). */

/** How long a modal takes to open or close. */
export const MODAL_ANIMATION_MS = 300;

/** How long a scroll-in animation (fade-up, fade-in) runs. */
export const SCROLL_IN_SECONDS = 0.4;

/** How long the page fade between routes runs. */
export const PAGE_FADE_SECONDS = 0.2;

/** Whether the person asked the system for less motion; false where matchMedia is missing. */
export function prefersReducedMotion(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}
