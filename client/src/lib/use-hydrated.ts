/**
 * False while React renders HTML before any script (on the server, at build time) and while it
 * hydrates that HTML, true from then on, and at once in a page React renders itself. For what a
 * page may only show once its script runs: a button that does nothing without it, a choice the
 * server cannot know.
 */
import { useSyncExternalStore } from 'react';

const subscribeToNothing = () => () => {};
const inBrowser = () => true;
const beforeScript = () => false;

export function useHydrated(): boolean {
  return useSyncExternalStore(subscribeToNothing, inBrowser, beforeScript);
}
