/**
 * Frame times while a person drags and wheel-zooms over a map in Chromium, shared by the
 * viewer's benches (bench/viewer-render.ts, bench/cluster.ts: the canvas) and the basemap's
 * (bench/basemap.ts: MapLibre): the intervals between animation frames during the gestures,
 * and the canvas viewer's own work per painted frame (it adds to `window.__mapfoldFrameTimes`
 * when that exists; MapLibre's view adds nothing).
 */
import type { Page } from 'playwright-core';

/** A drag around a circle of `radius` px in `steps` moves, or `times` wheel turns of `delta`. */
export type Gesture = { drag: number; radius: number } | { wheel: number; delta: number };

export interface FrameTimes {
  /** ms between animation frames, the first left out. */
  intervals: number[];
  /** The canvas viewer's work per painted frame, ms (empty for MapLibre). */
  work: number[];
}

/** Plays `gestures` about `center` (page px) in order, recording frame intervals meanwhile. */
export async function recordFrames(page: Page, center: { x: number; y: number }, gestures: readonly Gesture[]): Promise<FrameTimes> {
  // A string, not a function: the TypeScript runner would wrap named functions in helpers
  // the page does not have.
  await page.evaluate(`(() => {
    window.__mapfoldFrameTimes = [];
    window.__intervals = [];
    window.__recording = true;
    let last = performance.now();
    const loop = (now) => {
      window.__intervals.push(now - last);
      last = now;
      if (window.__recording) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  })()`);
  const { x, y } = center;
  for (const gesture of gestures) {
    if ('drag' in gesture) {
      await page.mouse.move(x, y);
      await page.mouse.down();
      for (let i = 1; i <= gesture.drag; i++) {
        const angle = (i / gesture.drag) * Math.PI * 2;
        await page.mouse.move(x + Math.sin(angle) * gesture.radius, y + (1 - Math.cos(angle)) * gesture.radius * 0.6);
      }
      await page.mouse.up();
    } else {
      await page.mouse.move(x, y);
      for (let i = 0; i < gesture.wheel; i++) {
        await page.mouse.wheel(0, gesture.delta);
        await page.waitForTimeout(16);
      }
    }
  }
  await page.waitForTimeout(200);
  return page.evaluate(`(() => {
    window.__recording = false;
    return { intervals: window.__intervals.slice(1), work: window.__mapfoldFrameTimes };
  })()`) as Promise<FrameTimes>;
}
