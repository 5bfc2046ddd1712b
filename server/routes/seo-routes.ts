/**
 * `GET /sitemap.xml` and `GET /robots.txt`: what search engines may crawl. The sitemap lists
 * the public pages of spec §2 with absolute addresses from PUBLIC_URL (crawlers need the host
 * the product is reached at, not the one the process listens on). Registered as routes of
 * their own, they win over the static files and the single-page app's fallback.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/** The public pages (spec §2), most important first: every visitor may see them. */
export const PUBLIC_PAGES: readonly string[] = [
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

/**
 * Pages crawlers are kept out of: the API, and pages that are private to a signed-in user or
 * only redirect there (a crawler would index nothing but the login page behind them).
 */
export const DISALLOWED_PATHS: readonly string[] = ['/api/', '/maps', '/account', '/subscribe', '/admin'];

/** Legal pages change rarely; the rest is the product's front and changes with each release. */
function changeFrequency(page: string): 'weekly' | 'monthly' | 'yearly' {
  if (page === '/agreement' || page === '/privacy' || page === '/terms') return 'yearly';
  return page === '/' || page === '/pricing' ? 'weekly' : 'monthly';
}

function priority(page: string): string {
  if (page === '/') return '1.0';
  if (page === '/pricing' || page === '/estimate') return '0.8';
  return changeFrequency(page) === 'yearly' ? '0.3' : '0.6';
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** PUBLIC_URL without a trailing slash, so a page path can be appended. */
function baseOf(publicUrl: string): string {
  return publicUrl.replace(/\/+$/, '');
}

export function sitemapXml(publicUrl: string): string {
  const base = baseOf(publicUrl);
  const urls = PUBLIC_PAGES.map(
    (page) =>
      `  <url>\n    <loc>${escapeXml(base + page)}</loc>\n    <changefreq>${changeFrequency(page)}</changefreq>\n    <priority>${priority(page)}</priority>\n  </url>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(publicUrl: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED_PATHS.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${baseOf(publicUrl)}/sitemap.xml`,
    '',
  ].join('\n');
}

export async function seoRoutes(app: FastifyInstance, config: Pick<Config, 'publicUrl'>): Promise<void> {
  // Both depend only on the configuration: built once.
  const sitemap = sitemapXml(config.publicUrl);
  const robots = robotsTxt(config.publicUrl);
  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=3600').send(sitemap));
  app.get('/robots.txt', { schema: { hide: true } }, async (_request, reply) => reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robots));
}
