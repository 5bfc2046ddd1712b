import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Vitest runs without globals here, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// jsdom does not implement scrolling; the layout scrolls to the top after each route change.
if (typeof window !== 'undefined') {
  window.scrollTo = () => {};
}
