/**
 * Pictures the end-to-end tests take for a person to look at (the UI is looked at, not only
 * tested): written to the folder $SCREENSHOTS names, and not taken at all when it is unset, as
 * in CI. Each costs Chromium a frame's capture and a PNG's encoding (more on a WebGL map), and
 * some 70 of them a run wrote into the checkout or /tmp where nobody opened them (issue 26
 * item 9). A picture a test reads (its pixels checked) is taken with page.screenshot() itself.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';

/** The folder pictures go to, or null: none are taken. */
export const SCREENSHOTS_DIR = process.env.SCREENSHOTS ?? null;

/** `target` (a page, or one element of it) as `name`.png in $SCREENSHOTS, when it is set. */
export async function lookAt(target: Page | Locator, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!SCREENSHOTS_DIR) return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
  if ('goto' in target) await target.screenshot({ path: file, fullPage: options.fullPage ?? false });
  else await target.screenshot({ path: file });
}
