/**
 * Route-level code splitting: each page is a chunk of its own, loaded when its route is first
 * rendered or, earlier, when a link to it is pointed at or focused (preload-on-intent.ts).
 * Pages that need the session's full runtime (accounts, maps, billing: zod and XState) wait for
 * it behind {@link SessionGate}, which loads it beside the page's chunk.
 */
import { use, type ComponentType, type ReactElement } from 'react';
import { loadSessionRuntime } from './session/local-session-shell';
import { SessionGate } from './session/session-gate';

export interface LazyPage {
  /** The page's element for the route table. */
  element: ReactElement;
  /** Loads the page's chunk (and the session runtime it needs), once. */
  preload(): Promise<unknown>;
}

/** What a route's `handle` holds: how to load its page ahead of a click. */
export interface RouteHandle {
  preload?: () => Promise<unknown>;
}

/**
 * A page from a module loaded on demand. `needsSession`: the page uses the session's actions,
 * the live connection or the user's maps, so it renders only once the full runtime runs.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType, { needsSession = false } = {}): LazyPage {
  let loading: Promise<M> | null = null;
  const loadPage = (): Promise<M> =>
    (loading ??= load().catch((error: unknown) => {
      loading = null; // A failed chunk (offline, a new deploy) is tried again next time.
      throw error;
    }));
  // Not React.lazy: once the chunk is in (preloaded on intent, or before a prerendered page is
  // hydrated, main.tsx), the page renders at once instead of suspending for a turn, and a
  // hydration never waits on it (an update meanwhile would replace the server's HTML).
  let loaded: ComponentType | null = null;
  let loadingComponent: Promise<ComponentType> | null = null;
  const loadComponent = (): Promise<ComponentType> =>
    (loadingComponent ??= loadPage().then(
      (module) => (loaded = pick(module)),
      (error: unknown) => {
        loadingComponent = null;
        throw error;
      },
    ));
  function Page() {
    const Component = loaded ?? use(loadComponent());
    return <Component />;
  }
  const page = <Page />;
  return needsSession
    ? {
        element: (
          <SessionGate preload={loadPage}>
            {page}
          </SessionGate>
        ),
        preload: () => Promise.all([loadComponent(), loadSessionRuntime()]),
      }
    : { element: page, preload: loadComponent };
}
