/**
 * The security headers of each kind of page (server/security/security-headers.ts), over HTTP:
 * app pages and API answers, the viewer page and its embed address, the local test checkout,
 * the outbox (and the outbox refused behind a reverse proxy), HSTS with an https PUBLIC_URL and
 * not without; and the policy's sources for Clerk and PostHog, read from the configuration.
 * Headers do not depend on the database: these run on PGlite only.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingSnapshot } from '../../projections/billing.js';
import { loadConfig } from '../../server/config.js';
import { clerkFrontendApi, contentSecurityPolicies, posthogOrigins } from '../../server/security/security-headers.js';
import { seedDemoMap } from '../../server/seed/seed-demo-map.js';
import { pgliteTarget } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer } from '../support/test-server.js';

const BUILT = existsSync('dist/client/index.html') && existsSync('dist/client/viewer.html');

/** A Content-Security-Policy header as directive → sources. */
function policyOf(response: Response): Map<string, string[]> {
  const header = response.headers.get('content-security-policy');
  expect(header, `a CSP on ${response.url}`).toBeTruthy();
  return new Map(
    header!
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** What every policy holds: no inline script, no eval, no plugins, no other base URL. */
function expectNoScriptLoopholes(policy: Map<string, string[]>) {
  const scripts = policy.get('script-src') ?? policy.get('default-src');
  expect(scripts, 'a script-src (or default-src) directive').toBeDefined();
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(scripts).not.toContain('*');
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(["'self'", "'none'"]).toContain(policy.get('base-uri')?.join(' '));
}

/** The inline `<script>` and `<style>` texts of a page, and whether it has `style` attributes. */
function inlineParts(html: string) {
  const scripts = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
  const styles = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1]!);
  return { scripts, styles, styleAttributes: /<[^>]+\sstyle=/.test(html) };
}

const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('security headers', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(pgliteTarget);
  });
  afterAll(() => server?.close());

  it('app pages and API answers: a strict CSP, framed by this site only, nosniff, a Referrer-Policy, no HSTS over http', async () => {
    // Given the app's pages (the React app's index.html, its 404 fallback) and API answers (JSON, and a JSON error)
    for (const path of ['/', '/maps', '/no-such-page', '/api/health', '/api/maps/nope/timeline']) {
      // When one is asked for
      const response = await fetch(`${server.url}${path}`);
      // Then it has the app's policy
      const policy = policyOf(response);
      expectNoScriptLoopholes(policy);
      expect(policy.get('default-src')).toEqual(["'self'"]);
      expect(policy.get('script-src')).toEqual(["'self'"]);
      expect(policy.get('script-src-attr')).toEqual(["'none'"]);
      expect(policy.get('style-src')).toEqual(["'self'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'self'"]);
      expect(policy.get('form-action')).toEqual(["'self'"]);
      // The live socket (PUBLIC_URL is http://localhost:3000 here), and nobody else to talk to.
      expect(policy.get('connect-src')).toEqual(["'self'", 'ws://localhost:3000']);
      // A location's photo may be on any site.
      expect(policy.get('img-src')).toEqual(expect.arrayContaining(["'self'", 'https:', 'http:']));
      expect(policy.has('upgrade-insecure-requests')).toBe(false);
      expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin');
      expect(response.headers.get('strict-transport-security')).toBeNull();
      expect(response.headers.get('cross-origin-embedder-policy')).toBeNull();
    }
  });

  it("a published map's JSON: what guards data, without the document-only headers", async () => {
    // Given the embed's hot path, a published map's JSON (and its refusal, also JSON)
    const demo = await seedDemoMap(server.services.store, server.services.clock, server.services.ids);
    if (demo) await server.runner.waitFor(demo);
    for (const [path, status] of [['/api/public/maps/demo', 200], ['/api/public/maps/nope', 404]] as const) {
      // When it is asked for
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(status);
      expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
      // Then it is never sniffed into something else, no other site's page reads it as a
      // subresource, and opened as a page it loads, runs and frames nothing
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      const policy = policyOf(response);
      expectNoScriptLoopholes(new Map([...policy, ['object-src', ["'none'"]], ['base-uri', ["'none'"]]]));
      expect(policy.get('default-src')).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      // And the headers only a document reads are left out
      for (const header of ['cross-origin-opener-policy', 'referrer-policy', 'x-frame-options', 'origin-agent-cluster', 'x-xss-protection', 'x-dns-prefetch-control']) {
        expect(response.headers.get(header), `${path}: ${header}`).toBeNull();
      }
    }
  });

  it.skipIf(!BUILT)('the built pages hold no inline script, stylesheet or style attribute', () => {
    // Given the client's two pages as built, then nothing in them needs an exception to the policy
    for (const file of ['dist/client/index.html', 'dist/client/viewer.html']) {
      const parts = inlineParts(readFileSync(file, 'utf8'));
      expect(parts, file).toEqual({ scripts: [], styles: [], styleAttributes: false });
    }
  });

  it('the viewer page and its embed address: framed by any site, talking to this site only', async () => {
    // Given a map's page, as linked and as the embed code's iframe opens it (with a location)
    for (const path of ['/m/some-map', '/m/some-map?location=cafe']) {
      // When it is asked for
      const response = await fetch(`${server.url}${path}`);
      // (no such map: the viewer's shell with 404, which an embed shows as its not-found page;
      // a published map's page is answered 200 with the same headers, test/server/public-map.test.ts)
      if (BUILT) expect(response.status).toBe(404);
      // Then any site may frame it, and it loads and calls nothing but this site
      const policy = policyOf(response);
      expectNoScriptLoopholes(policy);
      expect(policy.get('frame-ancestors')).toEqual(['*']);
      expect(response.headers.get('x-frame-options')).toBeNull();
      expect(policy.get('script-src')).toEqual(["'self'"]);
      expect(policy.get('style-src')).toEqual(["'self'"]);
      expect(policy.get('connect-src')).toEqual(["'self'"]);
      expect(policy.get('frame-src')).toEqual(["'none'"]);
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });

  it('the local test checkout: exactly its script and stylesheet by hash, forms back to this site, never framed', async () => {
    // Given a checkout started by a user
    const user = await registerUser(server);
    const started = await call(server, 'startCheckout', { plan: 'basic', interval: 'monthly', quantity: 2 }, user);
    expect(started.status).toBe(200);
    await projected(server, started.body.position, ['billing']);
    let url: string | null = null;
    for (let attempt = 0; attempt < 400 && !url; attempt++) {
      url = (await billingSnapshot(server.database.db, user.uid, false)).checkoutSessions.find((session) => session.id === started.body.result.sessionId)?.url ?? null;
      if (!url) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(url).toBeTruthy();
    // When its page is opened
    const response = await fetch(`${server.url}${new URL(url!).pathname}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    // Then every inline script and stylesheet it has is allowed by its hash, and nothing else
    const parts = inlineParts(html);
    expect(parts.scripts).toHaveLength(1);
    expect(parts.styleAttributes).toBe(false);
    const policy = policyOf(response);
    expectNoScriptLoopholes(policy);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(parts.scripts.map(hashOf));
    expect(policy.get('style-src')).toEqual(parts.styles.map(hashOf));
    // Completing redirects to PUBLIC_URL's page, which the browser checks against form-action.
    expect(policy.get('form-action')).toEqual(["'self'", 'http://localhost:3000']);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    // Not no-referrer: the browser would then send `Origin: null` with the form, refused as cross-site.
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');

    // And its other pages (here: one that does not exist) have the same policy
    const missing = await fetch(`${server.url}/local-stripe/billing/bps_nope`);
    expect(missing.status).toBe(404);
    expect(policyOf(missing)).toEqual(policy);
  });

  it('the outbox, on this machine: only its stylesheet, no Referer, never framed', async () => {
    // Given a mail in the outbox
    await registerUser(server, `outbox-${Date.now()}@example.com`, { verified: false });
    // When this machine opens the outbox
    const response = await fetch(`${server.url}/dev/outbox`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<h1>Outbox</h1>');
    // Then its one stylesheet is allowed by hash, and nothing else at all
    const parts = inlineParts(html);
    expect(parts.scripts).toEqual([]);
    expect(parts.styles).toHaveLength(1);
    const policy = policyOf(response);
    expectNoScriptLoopholes(policy);
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('style-src')).toEqual(parts.styles.map(hashOf));
    expect(policy.has('script-src')).toBe(false);
    expect(policy.get('form-action')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  describe('behind a reverse proxy (TRUST_PROXY set)', () => {
    let proxied: TestServer;
    beforeAll(async () => {
      proxied = await startTestServer(pgliteTarget, { env: { TRUST_PROXY: 'loopback' } });
    });
    afterAll(() => proxied?.close());

    it('refuses the outbox even to this machine: a proxy on this host makes every visitor local', async () => {
      // Given a mail in the outbox
      const address = `proxied-${Date.now()}@example.com`;
      await registerUser(proxied, address, { verified: false });
      // When the outbox is asked for from this machine, as the proxy would forward anyone's request
      const response = await fetch(`${proxied.url}/dev/outbox`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      const direct = await fetch(`${proxied.url}/dev/outbox`);
      // Then nobody sees it
      for (const answer of [response, direct]) {
        expect(answer.status).toBe(404);
        expect(await answer.text()).not.toContain(address);
      }
    });
  });

  describe('with an https PUBLIC_URL', () => {
    let secure: TestServer;
    beforeAll(async () => {
      secure = await startTestServer(pgliteTarget, { env: { PUBLIC_URL: 'https://maps.example.com' } });
    });
    afterAll(() => secure?.close());

    it('sends HSTS, upgrades insecure requests and names the wss: socket, on every kind of page', async () => {
      // (a published map's JSON too: test below)
      for (const path of ['/', '/api/health', '/m/some-map', '/dev/outbox', '/local-stripe/checkout/cs_nope']) {
        // When a page of any kind is asked for
        const response = await fetch(`${secure.url}${path}`);
        // Then the browser is told to use https only, for a year (this host only)
        expect(response.headers.get('strict-transport-security'), path).toBe('max-age=31536000');
        expect(policyOf(response).has('upgrade-insecure-requests'), path).toBe(true);
      }
      expect((await fetch(`${secure.url}/api/public/maps/nope`)).headers.get('strict-transport-security')).toBe('max-age=31536000');
      const app = policyOf(await fetch(`${secure.url}/`));
      expect(app.get('connect-src')).toEqual(["'self'", 'wss://maps.example.com']);
      // http: images would be mixed content on an https page.
      expect(app.get('img-src')).not.toContain('http:');
      expect(policyOf(await fetch(`${secure.url}/local-stripe/checkout/cs_nope`)).get('form-action')).toEqual(["'self'", 'https://maps.example.com']);
    });
  });
});

describe('the policy for Clerk and PostHog', () => {
  // pk_test_ + base64("clerk.mapfold.test$"), as in Clerk's dashboard.
  const CLERK = { CLERK_PUBLISHABLE_KEY: 'pk_test_Y2xlcmsubWFwZm9sZC50ZXN0JA', CLERK_SECRET_KEY: 'sk_test_x' };

  it('without them, the app talks to this site only', () => {
    const app = contentSecurityPolicies(loadConfig({})).app;
    expect(app['script-src']).toEqual(["'self'"]);
    expect(app['connect-src']).toEqual(["'self'", 'ws://localhost:3000']);
    expect(app['frame-src']).toEqual(["'self'"]);
    expect(app['worker-src']).toEqual(["'self'"]);
  });

  it('with Clerk: its frontend API host from the publishable key, and what its guide asks for', () => {
    expect(clerkFrontendApi(CLERK.CLERK_PUBLISHABLE_KEY)).toBe('clerk.mapfold.test');
    const policies = contentSecurityPolicies(loadConfig(CLERK));
    const app = policies.app;
    expect(app['script-src']).toEqual(["'self'", 'https://clerk.mapfold.test', 'https://challenges.cloudflare.com']);
    expect(app['connect-src']).toEqual(["'self'", 'ws://localhost:3000', 'https://clerk.mapfold.test']);
    expect(app['frame-src']).toEqual(["'self'", 'https://challenges.cloudflare.com']);
    expect(app['worker-src']).toEqual(["'self'", 'blob:']);
    expect(app['img-src']).toContain('https://img.clerk.com');
    expect(app['script-src']).not.toContain("'unsafe-inline'");
    // The viewer never signs anyone in.
    expect(policies.viewer['script-src']).toEqual(["'self'"]);
  });

  it('refuses to start with a Clerk key that names no host (the CSP could not allow Clerk)', () => {
    expect(() => contentSecurityPolicies(loadConfig({ ...CLERK, CLERK_PUBLISHABLE_KEY: 'pk_test_x' }))).toThrow(/CLERK_PUBLISHABLE_KEY/);
    // base64("evil.example; script-src *$"): a host that would end the directive.
    const injected = `pk_live_${Buffer.from("evil.example; script-src *$").toString('base64')}`;
    expect(() => clerkFrontendApi(injected)).toThrow(/CLERK_PUBLISHABLE_KEY/);
  });

  it('with PostHog: requests to its ingestion and asset hosts, never its scripts', () => {
    const app = contentSecurityPolicies(loadConfig({ POSTHOG_KEY: 'phc_x' })).app;
    expect(app['connect-src']).toEqual(["'self'", 'ws://localhost:3000', 'https://us.i.posthog.com', 'https://us-assets.i.posthog.com']);
    expect(app['script-src']).toEqual(["'self'"]);
    expect(posthogOrigins('https://eu.i.posthog.com/')).toEqual(['https://eu.i.posthog.com', 'https://eu-assets.i.posthog.com']);
    // A reverse proxy in front of PostHog serves everything.
    expect(posthogOrigins('https://ph.example.com/ingest')).toEqual(['https://ph.example.com']);
  });

  it('with BASEMAP_URL: a basemap floor reads its tiles, glyphs and icons from those sites, in the viewer and the app', () => {
    // The embedded basemap is this site's: nothing more than the viewer's worker.
    const embedded = contentSecurityPolicies(loadConfig({}));
    expect(embedded.viewer['connect-src']).toEqual(["'self'"]);
    expect(embedded.viewer['worker-src']).toEqual(["'self'", 'blob:']);
    const policies = contentSecurityPolicies(
      loadConfig({ BASEMAP_URL: 'pmtiles://https://tiles.example.com/planet.pmtiles', BASEMAP_GLYPHS_URL: 'https://fonts.example.net/{fontstack}/{range}.pbf', BASEMAP_SPRITE_URL: 'https://tiles.example.com/sprites/light' }),
    );
    expect(policies.viewer['connect-src']).toEqual(["'self'", 'https://tiles.example.com', 'https://fonts.example.net']);
    expect(policies.app['connect-src']).toEqual(["'self'", 'ws://localhost:3000', 'https://tiles.example.com', 'https://fonts.example.net']);
    expect(policies.viewer['script-src']).toEqual(["'self'"]);
  });
});
