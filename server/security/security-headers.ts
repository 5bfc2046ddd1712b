/**
 * The security headers of every answer, helmet's: a Content-Security-Policy for
 * each kind of page, HSTS when PUBLIC_URL is https, nosniff, a Referrer-Policy, and helmet's
 * other defaults (the ones changed below say why).
 *
 * The kinds of page, decided once per route when it is added ({@link pageKindOf}):
 * - `app`: the React app (index.html, its files, its 404 page), the API and anything else.
 *   Framed by this site only.
 * - `viewer`: a published map's page, `/m/{id}`. Any site may frame it (that is the embed
 *   code), and it talks to nobody but this site (and BASEMAP_URL's, for a basemap floor's
 *   tiles); a basemap floor's MapLibre runs a worker.
 * - `local-stripe`: the local test checkout's pages. Their one script and stylesheet are
 *   allowed by hash, and their forms post (and redirect) to this site only. Never framed.
 * - `outbox`: the dev outbox page. Its stylesheet by hash, nothing else. Never framed.
 * - `data`: a published map's JSON (`/api/public/maps/{id}`), the hot path of every embed. Not a
 *   document: only what guards data (nosniff; CORP same-origin, so no other site's page reads
 *   it as a subresource; a policy of nothing for whoever opens it as a page; HSTS over https).
 *   The document-only headers (COOP, Referrer-Policy, X-Frame-Options, Origin-Agent-Cluster,
 *   helmet's legacy ones) would cost each answer and guard nothing here.
 *
 * No policy allows inline script, `eval`, plugins or another `<base>`. Styles: stylesheets come
 * from this site only (the app's SVG layers use constructed stylesheets); `style` attributes
 * are allowed, as uploaded drawings carry them (the upload's sanitiser vetted their CSS).
 * Clerk, when configured, is allowed what its guide asks for, its hosts read from the
 * publishable key; PostHog, when configured, only its API and asset hosts for requests.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, RouteOptions } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import { CHECKOUT_SCRIPT, LOCAL_STRIPE_STYLE } from '../billing/local-stripe/local-stripe-views.js';
import { LOCAL_STRIPE_PREFIX } from '../billing/local-stripe/local-stripe-constants.js';
import type { Config } from '../config.js';
import { OUTBOX_PATH, OUTBOX_STYLE } from '../routes/dev-outbox-routes.js';

export type PageKind = 'app' | 'viewer' | 'local-stripe' | 'outbox' | 'data';

/** The published map JSON's route: answered at embed scale, with the `data` headers. */
export const PUBLIC_MAP_JSON_ROUTE = '/api/public/maps/:id';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Which headers the route's answers get (set as the route is added, {@link pageKindOf}). */
    pageKind?: PageKind;
  }
}

/** A policy's directives, by name, each a list of sources. */
export type Directives = Record<string, string[]>;

export type SecurityHeadersConfig = Pick<Config, 'publicUrl' | 'clerk' | 'posthog'> & Partial<Pick<Config, 'basemap'>>;

/** Which policy a route's answers get, by the route's path. */
export function pageKindOf(url: string): PageKind {
  if (url === '/m/:id') return 'viewer';
  if (url === PUBLIC_MAP_JSON_ROUTE) return 'data';
  if (url === OUTBOX_PATH) return 'outbox';
  if (url.startsWith(`${LOCAL_STRIPE_PREFIX}/`)) return 'local-stripe';
  return 'app';
}

/** A CSP source that allows exactly this inline `<script>` or `<style>` text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** Cloudflare Turnstile, the bot check Clerk shows on sign-up (a script and its iframe). */
const CLOUDFLARE_CHALLENGES = 'https://challenges.cloudflare.com';
/** Where Clerk serves profile pictures and logos. */
const CLERK_IMAGES = 'https://img.clerk.com';
/** A host name (and port), nothing that could end or extend a CSP directive. */
const HOST = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/i;

/**
 * The Clerk frontend API host a publishable key names: `pk_test_` or `pk_live_`, then the host
 * followed by `$`, in base64. @clerk/react loads clerk-js and Clerk's UI from
 * `https://{host}/npm/...` and calls the frontend API there.
 */
export function clerkFrontendApi(publishableKey: string): string {
  const match = /^pk_(?:test|live)_([A-Za-z0-9+/=_-]+)$/.exec(publishableKey);
  const decoded = match ? Buffer.from(match[1]!, 'base64').toString('utf8') : '';
  const host = decoded.endsWith('$') ? decoded.slice(0, -1) : '';
  if (!HOST.test(host)) {
    throw new Error('Invalid configuration: CLERK_PUBLISHABLE_KEY does not name a Clerk frontend API host (copy the key from Clerk\'s dashboard).');
  }
  return host;
}

/**
 * Where posthog-js sends requests for a configured host. For PostHog's cloud it uses the
 * region's ingestion and asset hosts (`https://us.i.posthog.com`, `https://us-assets.i.posthog.com`)
 * besides the configured one; any other host (a reverse proxy) is used for everything.
 */
export function posthogOrigins(host: string): string[] {
  const origin = new URL(host).origin;
  const cloud = /^https:\/\/(?:(app|us|us-assets)|(eu|eu-assets))(?:\.i)?\.posthog\.com$/i.exec(origin);
  if (!cloud) return [origin];
  const region = cloud[1] ? 'us' : 'eu';
  return [...new Set([origin, `https://${region}.i.posthog.com`, `https://${region}-assets.i.posthog.com`])];
}

/**
 * The other sites a basemap floor's MapLibre map reads from (issue 29 item 1): the origins of
 * BASEMAP_URL (an archive read with Range requests, or a style the server redirects to),
 * BASEMAP_GLYPHS_URL and BASEMAP_SPRITE_URL. None when the server serves the basemap itself.
 * A BASEMAP_URL style's own sources on yet other hosts are not known here (README, "Basemap").
 */
export function basemapOrigins(basemap: Config['basemap'] | undefined): string[] {
  if (!basemap) return [];
  const urls = [basemap.source.kind === 'embedded' ? null : basemap.source.url, basemap.glyphsUrl?.replace(/\{(fontstack|range)\}/g, 'x'), basemap.spriteUrl];
  const origins = urls.flatMap((url) => {
    try {
      return url ? [new URL(url).origin] : [];
    } catch {
      return [];
    }
  });
  return [...new Set(origins)];
}

/** The Content-Security-Policy of each kind of page. */
export function contentSecurityPolicies(config: SecurityHeadersConfig): Record<PageKind, Directives> {
  const site = new URL(config.publicUrl);
  const https = site.protocol === 'https:';
  // 'self' covers the same origin's ws:/wss: in current browsers; the explicit origin is for older ones.
  const liveSocket = `${https ? 'wss' : 'ws'}://${site.host}`;
  const clerk = config.clerk ? `https://${clerkFrontendApi(config.clerk.publishableKey)}` : null;
  const upgrade: Directives = https ? { 'upgrade-insecure-requests': [] } : {};
  // A basemap floor's tiles, glyphs and icons, when they are on another site.
  const basemap = basemapOrigins(config.basemap).filter((origin) => origin !== site.origin);
  const common: Directives = {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'object-src': ["'none'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    // Uploaded drawings style their shapes with `style` attributes (vetted by the upload's sanitiser).
    'style-src-attr': ["'unsafe-inline'"],
    // A location's photo and thumbnail may be any http(s) address; data: for the stylesheets' icons.
    'img-src': ["'self'", 'data:', 'https:', ...(https ? [] : ['http:'])],
    'font-src': ["'self'"],
    'connect-src': ["'self'"],
    'form-action': ["'self'"],
    ...upgrade,
  };
  const pageOnly = (directives: Directives): Directives => ({
    'default-src': ["'none'"],
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
    // Firefox checks the favicon against img-src.
    'img-src': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...directives,
    ...upgrade,
  });
  return {
    app: {
      ...common,
      'script-src': ["'self'", ...(clerk ? [clerk, CLOUDFLARE_CHALLENGES] : [])],
      // Clerk's UI styles itself at run time with CSS-in-JS (its CSP guide asks for this).
      'style-src': ["'self'", ...(clerk ? ["'unsafe-inline'"] : [])],
      'img-src': [...common['img-src']!, ...(clerk ? [CLERK_IMAGES] : [])],
      'connect-src': ["'self'", liveSocket, ...(config.posthog ? posthogOrigins(config.posthog.host) : []), ...(clerk ? [clerk] : []), ...basemap],
      // The landing and case-study pages show a live map: this site's viewer in an iframe.
      'frame-src': ["'self'", ...(clerk ? [CLOUDFLARE_CHALLENGES] : [])],
      'worker-src': ["'self'", ...(clerk ? ['blob:'] : [])],
      'frame-ancestors': ["'self'"],
    },
    viewer: {
      ...common,
      // A basemap floor (MapLibre) fetches its style, tiles (Range requests), glyphs and icons.
      'connect-src': ["'self'", ...basemap],
      'frame-src': ["'none'"],
      // MapLibre's worker: this site's module, or a blob: importing it when the scripts are elsewhere.
      'worker-src': ["'self'", 'blob:'],
      // The embed code: any site may show a published map in an iframe.
      'frame-ancestors': ['*'],
    },
    'local-stripe': pageOnly({
      'script-src': [cspHash(CHECKOUT_SCRIPT)],
      'style-src': [cspHash(LOCAL_STRIPE_STYLE)],
      // Completing or cancelling redirects to the product's page at PUBLIC_URL, which a
      // browser checks against form-action too.
      'form-action': ["'self'", site.origin],
    }),
    outbox: pageOnly({
      'style-src': [cspHash(OUTBOX_STYLE)],
      'form-action': ["'none'"],
    }),
    // Data opened as a page loads, runs and frames nothing (OWASP's REST headers).
    data: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
  };
}

/** The helmet options of each kind of page: the app's are the global ones. */
export function helmetOptions(config: SecurityHeadersConfig) {
  const policies = contentSecurityPolicies(config);
  const https = new URL(config.publicUrl).protocol === 'https:';
  const csp = (kind: PageKind) => ({ useDefaults: false, directives: policies[kind] });
  const app = {
    contentSecurityPolicy: csp('app'),
    // Off on purpose (it is helmet's default too): require-corp would refuse every image from
    // another site that does not send CORP, and a location's photo may be on any site.
    crossOriginEmbedderPolicy: false,
    // Same-origin: no other site's window keeps a handle on ours. Stripe's checkout and
    // Clerk's Google sign-in are redirects, not pop-ups, so they need no opener.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    // Not no-referrer: a browser then sends `Origin: null` on a form post, and the same-site
    // check refuses the local checkout's forms (and the app's own writes).
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Only over https. No includeSubDomains: PUBLIC_URL may be a host whose sibling
    // subdomains are not the product's to decide for.
    strictTransportSecurity: https ? { maxAge: 365 * 24 * 60 * 60, includeSubDomains: false } : false,
    xContentTypeOptions: true,
    xFrameOptions: { action: 'sameorigin' },
  } satisfies HelmetOptions;
  return {
    app,
    // X-Frame-Options knows no "any site": only the CSP's frame-ancestors speaks for the viewer.
    // CORP cross-origin: a site that isolates itself (COEP require-corp) may still embed it.
    viewer: { ...app, contentSecurityPolicy: csp('viewer'), xFrameOptions: false, crossOriginResourcePolicy: { policy: 'cross-origin' } },
    'local-stripe': { ...app, contentSecurityPolicy: csp('local-stripe'), xFrameOptions: { action: 'deny' } },
    // Its links carry sign-in tokens: no Referer at all.
    outbox: { ...app, contentSecurityPolicy: csp('outbox'), xFrameOptions: { action: 'deny' }, referrerPolicy: { policy: 'no-referrer' } },
    data: {
      contentSecurityPolicy: csp('data'),
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: false,
      crossOriginResourcePolicy: { policy: 'same-origin' },
      originAgentCluster: false,
      referrerPolicy: false,
      strictTransportSecurity: app.strictTransportSecurity,
      xContentTypeOptions: true,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xFrameOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    },
  } satisfies Record<PageKind, HelmetOptions>;
}

/**
 * The headers helmet sets for these options, worked out once: helmet's middleware writes the
 * same headers for every request (no nonces here), so they are captured from one run.
 */
function headersOf(options: HelmetOptions): Array<[string, string]> {
  const headers = new Map<string, string>();
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return [...headers];
}

/**
 * Registers the headers on the root instance, before any route: each route's kind is decided
 * as the route is added, and every answer (the not-found handler's too) gets its kind's
 * headers. They are helmet's (the options above), computed once per kind at start-up rather
 * than by @fastify/helmet per request, which parsed the policies again for every answer (a
 * seventh of the CPU of a published map read from memory).
 */
export async function securityHeaders(app: FastifyInstance, config: SecurityHeadersConfig): Promise<(kind: PageKind) => Readonly<Record<string, string>>> {
  const options = helmetOptions(config);
  const byKind = Object.fromEntries(Object.entries(options).map(([kind, kindOptions]) => [kind, Object.fromEntries(headersOf(kindOptions))])) as Record<PageKind, Record<string, string>>;
  app.addHook('onRoute', (route: RouteOptions) => {
    route.config = { ...route.config, pageKind: pageKindOf(route.url) };
  });
  app.addHook('onRequest', (request, reply, done) => {
    const kind = request.routeOptions.config?.pageKind ?? 'app';
    reply.headers(byKind[kind]);
    done();
  });
  // The same headers for answers sent before Fastify (public-map-routes.ts's fast path).
  return (kind) => byKind[kind];
}
