/**
 * Waiting for a page's motion to end, instead of sleeping for as long as it might last: a
 * dialog's or page's fade, a sheet sliding in. Screenshots and axe's colour checks read the
 * page as a person sees it once it is still.
 */
import type { Frame, Page } from 'playwright-core';

/** Until every finite animation and transition of the page has ended (an endless one, a spinner, is let be). */
export async function animationsEnded(page: Page, timeout = 15_000): Promise<void> {
  // A function: a string would be evaluated in the page, which the viewer's policy refuses.
  await page.waitForFunction(
    () => document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().endTime === Infinity),
    undefined,
    { timeout },
  );
}

/**
 * What `read` answers once it has stayed the same for three frames of `frame`: for what moves
 * by script rather than CSS (the map's camera, an overlay placed again as it grows).
 */
export async function steady<T>(frame: Page | Frame, read: () => Promise<T>, timeout = 15_000): Promise<T> {
  const deadline = Date.now() + timeout;
  let value = await read();
  for (let unchanged = 0; unchanged < 3; ) {
    if (Date.now() > deadline) throw new Error(`Still changing after ${timeout} ms: ${JSON.stringify(value)}`);
    await frame.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    const next = await read();
    unchanged = JSON.stringify(next) === JSON.stringify(value) ? unchanged + 1 : 0;
    value = next;
  }
  return value;
}
