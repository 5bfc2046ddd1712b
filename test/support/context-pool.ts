/**
 * Browser contexts used again by a file's tests (issue 26 item 9: CI's time).
 *
 * Measured on this 2-core machine (one page opened and drawn, CPU seconds of every process):
 * a page in a new context costs some 3 s for the home page and 8.5 s for a street map, most of it
 * Chromium starting a renderer process for it and compiling the app's scripts cold again; the
 * same page in a context kept from an earlier test, with one page of the site kept open in it (so
 * its renderer process lives on: Chromium runs with --process-per-site), costs 1-1.8 s and 5.5 s,
 * its HTTP cache cleared as a new context's is. The e2e files open a few hundred pages a run.
 *
 * So `newContext` of a session's browser (test/support/browser.ts) hands out a context of this
 * pool, and its `close()` gives it back as a new one would be: its pages closed, its cookies,
 * permissions, storage of every origin it visited and HTTP cache cleared, listeners taken off.
 * A context that was changed in a way that cannot be undone (init scripts, exposed functions,
 * routes, a clock, geolocation, offline, extra headers, timeouts, storage state) is closed for
 * real instead. `pages()` leaves out the kept page, so a test sees the pages it opened.
 * E2E_FRESH_CONTEXTS=1 gives every test a new context as before (to compare, or to rule the pool out).
 */
import type { Browser, BrowserContext, BrowserContextOptions, CDPSession, Page } from 'playwright-core';

/** Methods after which a context cannot be given to another test as new. */
const CHANGES_FOR_GOOD = new Set([
  'addInitScript',
  'exposeBinding',
  'exposeFunction',
  'route',
  'routeFromHAR',
  'routeWebSocket',
  'setGeolocation',
  'setOffline',
  'setExtraHTTPHeaders',
  'setDefaultTimeout',
  'setDefaultNavigationTimeout',
  'setHTTPCredentials',
  'grantPermissions',
  'clock',
  'tracing',
  'storageState',
]);

interface Pooled {
  context: BrowserContext;
  key: string;
  keeper: Page;
  cdp: CDPSession;
  origins: Set<string>;
  changedForGood: boolean;
  busy: boolean;
  /** The listeners a test added to the context, taken off when it is given back. */
  listeners: [string, (...args: never[]) => unknown][];
}

export interface ContextPool {
  newContext(options?: BrowserContextOptions): Promise<BrowserContext>;
}

/** A pool of contexts of `browser` whose pages open `keepAt` (a small page of the test server) to keep their process. */
export function contextPool(browser: Browser, keepAt: string): ContextPool {
  const pooled: Pooled[] = [];

  /** The pool's own listeners on a context. */
  const listen = (entry: Pooled) => {
    entry.context.on('page', (page) =>
      page.on('framenavigated', (frame) => {
        const origin = originOf(frame.url());
        if (origin) entry.origins.add(origin);
      }),
    );
    entry.context.on('close', () => {
      const at = pooled.indexOf(entry);
      if (at >= 0) pooled.splice(at, 1);
    });
  };

  async function create(options: BrowserContextOptions, key: string): Promise<Pooled> {
    const context = await browser.newContext(options);
    const keeper = await context.newPage();
    await keeper.goto(keepAt);
    const cdp = await context.newCDPSession(keeper);
    const entry: Pooled = { context, key, keeper, cdp, origins: new Set([originOf(keepAt)!]), changedForGood: false, busy: true, listeners: [] };
    listen(entry);
    pooled.push(entry);
    return entry;
  }

  /** The context as it was new: its pages, cookies, permissions, storage and cache gone. */
  async function giveBack(entry: Pooled): Promise<void> {
    const { context, keeper, cdp } = entry;
    if (entry.changedForGood || keeper.isClosed()) {
      await context.close();
      return;
    }
    try {
      await Promise.all(context.pages().filter((page) => page !== keeper).map((page) => page.close()));
      // The test's listeners (not all of them: Playwright's own wait for the context's close).
      for (const [event, listener] of entry.listeners.splice(0)) context.off(event as 'page', listener as () => void);
      await context.clearCookies();
      await context.clearPermissions();
      await Promise.all([...entry.origins].map((origin) => cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' })));
      await cdp.send('Network.clearBrowserCache');
    } catch (error) {
      // Not as new: not given out again.
      await context.close().catch(() => undefined);
      throw error;
    }
    entry.origins = new Set([originOf(keepAt)!]);
    entry.busy = false;
  }

  function handOut(entry: Pooled): BrowserContext {
    entry.busy = true;
    const { context, keeper } = entry;
    let given = false;
    return new Proxy(context, {
      get(target, property, receiver) {
        if (property === 'close') {
          return async () => {
            if (given) return;
            given = true;
            await giveBack(entry);
          };
        }
        if (property === 'pages') return () => target.pages().filter((page) => page !== keeper);
        if (property === 'on' || property === 'once' || property === 'addListener' || property === 'prependListener') {
          const add = (target[property] as (event: string, listener: (...args: never[]) => unknown) => BrowserContext).bind(target);
          return (event: string, listener: (...args: never[]) => unknown) => {
            entry.listeners.push([event, listener]);
            return add(event, listener);
          };
        }
        if (typeof property === 'string' && CHANGES_FOR_GOOD.has(property)) entry.changedForGood = true;
        const value = Reflect.get(target, property, receiver) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  return {
    async newContext(options = {}) {
      const key = JSON.stringify(options);
      const idle = pooled.find((entry) => !entry.busy && entry.key === key);
      return handOut(idle ?? (await create(options, key)));
    },
  };
}

function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin.startsWith('http') ? origin : null;
  } catch {
    return null;
  }
}
