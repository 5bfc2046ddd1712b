import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { cleanup, configure } from '@testing-library/react';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach } from 'vitest';
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
