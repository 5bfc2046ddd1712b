/**
 * The end-to-end tests' browser: Debian's Chromium through playwright-core, against the built
 * client served by a whole test server.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { pgliteTarget } from './databases.js';
import { startTestServer, type TestServer, type TestServerOptions, type TestUser } from './test-server.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * One headless Chromium per test worker, shared by the files it runs one after the other (the
 * node project shares a module graph per worker: vitest.config.ts): launching and closing one
 * per file cost a second or two of a core each, some 40 files a run (issue 26 item 9). What a
 * file opens in it is closed with the file's session (its contexts), so the next file starts
 * with none; the browser itself ends with the worker's process (playwright closes what it
 * launched when its process exits), or is launched again if it crashed.
 */
let sharedBrowser: Promise<Browser> | null = null;

function workerBrowser(): Promise<Browser> {
  if (!sharedBrowser) {
    const launched = chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    sharedBrowser = launched;
    launched.then(
      (browser) => browser.on('disconnected', () => {
        if (sharedBrowser === launched) sharedBrowser = null;
      }),
      () => {
        if (sharedBrowser === launched) sharedBrowser = null;
      },
    );
  }
  return sharedBrowser;
}

const CONTEXTS_CLOSE_MS = 15_000;

/** Whether `promise` settles (either way) within `ms`. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** A test server whose mailed links point at itself, and the worker's headless Chromium. */
export async function startBrowserSession(options: Pick<TestServerOptions, 'env' | 'clock'> = {}): Promise<{ server: TestServer; browser: Browser; close(): Promise<void> }> {
  if (!existsSync('dist/client/index.html')) throw new Error('Build the client first: npm run build');
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install chromium`);
  const launchedAs = workerBrowser();
  const [server, browser] = await Promise.all([startTestServer(pgliteTarget, { ...options, linksToThisServer: true }), launchedAs]);
  return {
    server,
    browser,
    async close() {
      // The file's pages and contexts, not the browser: the worker's next file uses it. A
      // context that does not close within CONTEXTS_CLOSE_MS (CI saw a file's afterAll wait its
      // whole 60 s once) means the browser is in trouble: it is closed, and the next file
      // launches another, as each file did before the browser was shared.
      const contextsClosed = Promise.all(browser.contexts().map((context) => context.close()));
      if (!(await settlesWithin(contextsClosed, CONTEXTS_CLOSE_MS))) {
        if (sharedBrowser === launchedAs) sharedBrowser = null;
        await settlesWithin(browser.close(), CONTEXTS_CLOSE_MS);
      }
      // Connections the browser may have left open (a response still being written, an idle
      // keep-alive) must not hold the server's close: the file is over, nobody reads them.
      server.app.server.closeAllConnections();
      await server.close();
    },
  };
}

/** A browser context signed in as `user` (their session cookie), on the test server. */
export async function signedInContext(browser: Browser, server: TestServer, user: TestUser, viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: server.url, viewport });
  const [name, value] = user.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: server.url }]);
  return context;
}

/**
 * A browser session for the tests of the file or `describe` this is called in: started before
 * them, closed after; its server and browser are on the returned object once they run.
 */
export function useBrowserSession(options: Pick<TestServerOptions, 'env' | 'clock'> = {}): { server: TestServer; browser: Browser } {
  const current = {} as { server: TestServer; browser: Browser };
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const session = await startBrowserSession(options);
    ({ close } = session);
    Object.assign(current, { server: session.server, browser: session.browser });
  });
  afterAll(() => close?.());
  return current;
}
