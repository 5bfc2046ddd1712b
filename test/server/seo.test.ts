/**
 * What crawlers and the client read at run time: `/sitemap.xml` and `/robots.txt` (absolute
 * addresses from PUBLIC_URL, served before the static files and the app's fallback) and
 * `/api/client-config` (PostHog only when POSTHOG_KEY is set).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientConfig } from '../../events/client-config.js';
import { pgliteTarget } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const PUBLIC_URL = 'https://maps.example.com';
const PUBLIC_PAGES = [
  '/',
  '/pricing',
  '/estimate',
  '/case-study/real-estate',
  '/case-study/retail',
  '/case-study/geographic',
  '/wayfinding',
  '/contact',
  '/agreement',
  '/privacy',
  '/terms',
];

describe('sitemap.xml and robots.txt', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(pgliteTarget, { env: { PUBLIC_URL: `${PUBLIC_URL}/` } });
  });
  afterAll(() => server?.close());

  it('given PUBLIC_URL, the sitemap lists every public page of spec §2 with its absolute address', async () => {
    const response = await fetch(`${server.url}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await response.text();
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(PUBLIC_PAGES.map((page) => `${PUBLIC_URL}${page}`));
    // Nothing private or redirecting is offered to crawlers.
    for (const location of locations) expect(new URL(location!).pathname).not.toMatch(/^\/(maps|account|subscribe|admin|login|api)\b/);
  });

  it('robots.txt allows the public pages, keeps crawlers out of the private ones and names the sitemap', async () => {
    const response = await fetch(`${server.url}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = (await response.text()).split('\n');
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toContain('Allow: /');
    for (const path of ['/api/', '/maps', '/account', '/subscribe', '/admin']) expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    const disallowed = lines.filter((line) => line.startsWith('Disallow: ')).map((line) => line.slice('Disallow: '.length));
    for (const page of PUBLIC_PAGES) {
      expect(disallowed.some((prefix) => page.startsWith(prefix)), page).toBe(false);
    }
  });

  it('without POSTHOG_KEY, the client config keeps analytics local', async () => {
    const response = await fetch(`${server.url}/api/client-config`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { result: unknown };
    expect(ClientConfig.parse(body.result)).toEqual({ analytics: { posthog: null }, licences: { mode: 'local' } });
  });
});

describe('client config with PostHog', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(pgliteTarget, { env: { POSTHOG_KEY: 'phc_test_key', POSTHOG_HOST: 'https://eu.i.posthog.com/' } });
  });
  afterAll(() => server?.close());

  it('given POSTHOG_KEY and POSTHOG_HOST, the client is told both', async () => {
    const body = (await fetch(`${server.url}/api/client-config`).then((r) => r.json())) as { result: unknown };
    expect(ClientConfig.parse(body.result)).toEqual({ analytics: { posthog: { key: 'phc_test_key', host: 'https://eu.i.posthog.com' } }, licences: { mode: 'local' } });
  });
});
