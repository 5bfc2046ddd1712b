import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, afterEach, vi } from 'vitest';
// The viewer's components read English outside a provider, as in the app (client/src/i18n/english-fallback.ts).
import '../../client/src/i18n/english-fallback';
import { FakeXhr } from './support/fake-xhr';

// findBy* and waitFor give up after 1 s by default: too tight on a shared 2-core machine under
// load (animation frames and timers then run late), so tests wait up to 5 s before failing.
configure({ asyncUtilTimeout: 5_000 });

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// An upload a test left unanswered (its FakeXhr never moved on) is aborted once the test is over,
// so the import's progress polling it started stops: it would otherwise go on asking every later
// test's fetch stub for as long as the page lives (every file's, were one page shared by a worker).
afterEach(() => {
  for (const request of FakeXhr.sent) if (request.status === 0 && !request.aborted) request.abort();
  FakeXhr.sent = [];
});

// jsdom has no IndexedDB (the editor keeps unsaved edits there): an in-memory one, emptied after
// each test so no test sees the edits another one left.
afterEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

// jsdom does not implement scrolling; the layout scrolls to the top after each route change.
if (typeof window !== 'undefined') {
  window.scrollTo = () => {};
}

/**
 * Timers a file started are stopped when the file ends. The client project may share one module
 * graph per worker (vitest.config.ts), and a timer a file left (a poll, a reconnect, a debounce)
 * would otherwise fire during the worker's next file: into that file's fetch stub, its DOM, its
 * clock. Each file's timers are its own: taken note of here, cleared in afterAll.
 */
const TRACKED = Symbol.for('mapfold.test.trackedTimers');
type Tracked = { handles: Set<unknown> };
const holder = globalThis as typeof globalThis & { [TRACKED]?: Tracked };
const WRAPPED = Symbol.for('mapfold.test.wrappedTimers');
holder[TRACKED] ??= { handles: new Set() };
// Wrapped once per global object (a file's environment may give the worker fresh timers).
if (!(WRAPPED in globalThis.setTimeout)) {
  const tracked = holder[TRACKED];
  const { setTimeout: realSetTimeout, setInterval: realSetInterval, clearTimeout: realClearTimeout, clearInterval: realClearInterval } = globalThis;
  globalThis.setTimeout = ((handler: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    const handle = realSetTimeout(
      (...callArgs: unknown[]) => {
        tracked.handles.delete(handle);
        handler(...callArgs);
      },
      delay,
      ...args,
    );
    tracked.handles.add(handle);
    return handle;
  }) as typeof globalThis.setTimeout;
  globalThis.setInterval = ((handler: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    const handle = realSetInterval(handler, delay, ...args);
    tracked.handles.add(handle);
    return handle;
  }) as typeof globalThis.setInterval;
  globalThis.clearTimeout = ((handle?: Parameters<typeof realClearTimeout>[0]) => {
    tracked.handles.delete(handle);
    realClearTimeout(handle);
  }) as typeof globalThis.clearTimeout;
  globalThis.clearInterval = ((handle?: Parameters<typeof realClearInterval>[0]) => {
    tracked.handles.delete(handle);
    realClearInterval(handle);
  }) as typeof globalThis.clearInterval;
  Object.defineProperty(globalThis.setTimeout, WRAPPED, { value: true });
}

afterAll(() => {
  const tracked = holder[TRACKED]!;
  for (const handle of tracked.handles) {
    clearTimeout(handle as Parameters<typeof clearTimeout>[0]);
    clearInterval(handle as Parameters<typeof clearInterval>[0]);
  }
  tracked.handles.clear();
  // What a file stubbed or faked is its own too.
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  if (typeof window !== 'undefined') {
    window.localStorage.clear();
    window.sessionStorage.clear();
  }
});
