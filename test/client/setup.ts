import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// findBy* and waitFor give up after 1 s by default: too tight on a shared 2-core machine under
// load (animation frames and timers then run late), so tests wait up to 5 s before failing.
configure({ asyncUtilTimeout: 5_000 });

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// jsdom does not implement scrolling; the layout scrolls to the top after each route change.
if (typeof window !== 'undefined') {
  window.scrollTo = () => {};
}
