/**
 * Waiting for a page's motion to end, instead of sleeping for as long as it might last: a
 * dialog's or page's fade, a sheet sliding in. Screenshots and axe's colour checks read the
 * page as a person sees it once it is still.
 */
import type { Page } from 'playwright-core';

/** Until every finite animation and transition of the page has ended (an endless one, a spinner, is let be). */
export async function animationsEnded(page: Page, timeout = 15_000): Promise<void> {
  // A function: a string would be evaluated in the page, which the viewer's policy refuses.
  await page.waitForFunction(
    () => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity),
    undefined,
    { timeout },
  );
}
