import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchRoutes } from 'react-router-dom';
import { App } from './app/app';
import type { RouteHandle } from './app/lazy-page';
import { routes } from './app/router';
import { fetchAuthConfigLight, fetchSignedInUser } from './app/session/first-requests';
import { startHydrating } from './lib/hydration';
import { settled } from './lib/settled-promise';
import './styles/global.css';

// Both questions go out before React starts, side by side (the header needs their answers).
const authConfig = fetchAuthConfigLight();
const signedInUser = fetchSignedInUser();
// Answered later by whoever reads it; a failure means "signed out" (local-session-shell.tsx).
signedInUser.catch(() => {});

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');
const app = <App authConfig={authConfig} signedInUser={signedInUser} />;
// A marketing page comes prerendered (scripts/prerender-pages.ts): painted already, React
// takes it over; every other page starts from the empty shell.
if (root.firstElementChild) {
  const { pathname } = window.location;
  startHydrating(pathname);
  // What the page's first render waits for (the accounts' mode, the page's own chunk) comes
  // first, so hydration never suspends: an update (the session's answer) reaching a boundary
  // still waiting would make React drop the server's HTML and show the spinner instead.
  const pageChunks = (matchRoutes(routes, pathname) ?? []).map((match) => (match.route.handle as RouteHandle | undefined)?.preload?.());
  void Promise.all([authConfig.then((config) => settled(authConfig, config)), ...pageChunks])
    .catch(() => {}) // a chunk that failed is loaded again, and reported, by the page itself
    .finally(() => hydrateRoot(root, app));
} else {
  createRoot(root).render(app);
}
