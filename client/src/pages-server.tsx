/**
 * The marketing pages rendered at build time (`vite build --ssr`, into
 * dist/server/pages-server.js; scripts/prerender-pages.ts writes the pages): the markup of
 * `#root` for a path, exactly what the browser's first render of main.tsx gives when it
 * hydrates it (signed-in state unknown yet, no consent banner, nothing animated), with the
 * page's title and description. The hero is on screen before the app's script has run.
 */
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router-dom';
import { AppFrame, AppInRouter } from './app/app';
import { LOCAL_AUTH_CONFIG } from './app/session/first-requests';
import { prerenderedHead } from './features/marketing/components/page-description';
import { marketingPaths } from './lib/paths';
import { settled } from './lib/settled-promise';

export { marketingPaths };

export interface PrerenderedPage {
  /** The markup of `#root`. */
  html: string;
  /** The page's `<title>` text (still escaped as HTML), if it has one. */
  title: string | null;
  description: string | null;
}

/** React writes a page's `<title>` (a hoistable) ahead of the markup; the page template's head takes it. */
const LEADING_TITLE = /^<title>([^<]*)<\/title>/;

async function render(path: string): Promise<string> {
  const { prelude } = await prerender(
    <AppFrame>
      <StaticRouter location={path}>
        {/* Who is signed in is never known here: the page renders as the browser's first render does, before the answer. */}
        <AppInRouter authConfig={settled(Promise.resolve(LOCAL_AUTH_CONFIG), LOCAL_AUTH_CONFIG)} signedInUser={new Promise(() => {})} />
      </StaticRouter>
    </AppFrame>,
    // Every boundary's content in place, however large: React otherwise moves a big one to
    // the end of the page with a script to put it back (progressive loading of a stream).
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return new Response(prelude).text();
}

export async function prerenderPage(path: string): Promise<PrerenderedPage> {
  // The first pass loads the page's lazy modules (React.lazy keeps them); the second renders
  // with nothing left to wait for. A boundary that waited would need React's inline script to
  // put its content in place, which the Content-Security-Policy refuses.
  await render(path);
  prerenderedHead.description = null;
  let html = await render(path);
  if (/<script\b/i.test(html)) throw new Error(`The prerendered ${path} still waits for something (React wrote an inline script): render it without suspending.`);
  const title = LEADING_TITLE.exec(html);
  if (title) html = html.slice(title[0].length);
  return { html, title: title?.[1] ?? null, description: prerenderedHead.description };
}
