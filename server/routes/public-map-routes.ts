/**
 * The public side of a map: the read API the viewer loads (`GET /api/public/maps/:id`) and the
 * viewer's own page (`GET /m/:id`), which any site may frame while every other page is framed
 * by this site only (its headers are set with the others' in server/security/security-headers.ts).
 *
 * Who may view: live, demo, pro and admin maps (state 1 and above) are public, and answered
 * from memory (server/public-maps/public-map-cache.ts) with no database read, not even of who
 * is calling. A test map (state 0) is shown to whoever may view it (events/map-access.ts: its
 * owner, members, admins, and holders of its view link, `?key=`), marked `test: true`, and
 * only then is the caller identified; anyone else gets the same 404 as for a map that does not
 * exist, so a test map's existence is not revealed.
 *
 * Caching by others (README "Static files and a CDN"): a published map may be kept by a CDN
 * for {@link SHARED_MAX_AGE} seconds and served stale while it revalidates; browsers always
 * revalidate (a 304 from memory). Test maps and errors are never kept by a shared cache.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { requireTokenScope } from '../auth/api-token-auth.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../events/errors.js';
import { ErrorBody } from '../../events/function-results.js';
import { MapIdParams, PublicMap, resultOf } from '../../events/http-api.js';
import type { Queryable } from '../../ports/database.js';
import { can } from '../../events/map-access.js';
import { holdsViewLink, loadMapAccess } from '../access/map-access-facts.js';
import { typed } from '../http/zod-routes.js';
import { parseAcceptLanguage } from '../../events/locales.js';
import { PUBLIC_MAP_JSON_ROUTE } from '../security/security-headers.js';
import { publicMapJson, type PublicMapCache } from '../public-maps/public-map-cache.js';
import { sendCompressedOnce, sendEncoded } from '../public-maps/send-encoded.js';
import { ifNoneMatchMatches } from '../public-maps/http-negotiation.js';
import { OEmbedQuery, OEmbedRich, oembedFor, viewerPageOf } from '../../events/oembed.js';

export type { PublicMap } from '../../events/http-api.js';

const NOT_FOUND = 'Map not found.';
/** `?key=`: the map's view link key ("anyone with the link can view"). */
const ViewLinkQuery = z.object({ key: z.string().max(128).optional() });
/** The viewer page's query: the view link key, and `?lang=` to choose the viewer's language (events/locales.ts). */
const ViewerPageQuery = ViewLinkQuery.extend({ lang: z.string().max(35).optional() });
const MAP_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * How long a CDN may serve a published map without asking (s): a change (a publish, an edit,
 * an unpublish) shows through a CDN within this, and through this server at once.
 */
export const SHARED_MAX_AGE = 30;
/** After that, how long a CDN may still serve its copy while it revalidates in the background (s). */
export const STALE_WHILE_REVALIDATE = 300;
/** How long a CDN may serve its copy while this server cannot answer (s): embeds outlive an outage. */
export const STALE_IF_ERROR = 86_400;
export const PUBLISHED_CACHE_CONTROL = `public, max-age=0, s-maxage=${SHARED_MAX_AGE}, stale-while-revalidate=${STALE_WHILE_REVALIDATE}, stale-if-error=${STALE_IF_ERROR}`;
/** A test map: only for the people allowed to see it. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';
/** A not-found: kept by nobody (404s are otherwise heuristically cacheable, RFC 9110 §15.1). */
export const ERROR_CACHE_CONTROL = 'no-store';

/** The headers of a published map's JSON answered 304, besides the `data` kind's security headers. */
function notModifiedHeaders(etag: string): Record<string, string> {
  return { vary: 'Accept-Encoding', 'cache-control': PUBLISHED_CACHE_CONTROL, etag };
}

/** The published map's JSON that `If-None-Match` already holds (kept in memory, its ETag matching), else undefined. */
function heldJsonTag(cache: Pick<PublicMapCache, 'peekJson'>, id: string, ifNoneMatch: string | undefined): string | undefined {
  if (ifNoneMatch === undefined || !MAP_ID.test(id)) return undefined;
  const body = cache.peekJson(id);
  return body && ifNoneMatchMatches(ifNoneMatch, body.etag) ? body.etag : undefined;
}

const PUBLIC_MAP_JSON_PREFIX = PUBLIC_MAP_JSON_ROUTE.slice(0, -':id'.length);

/**
 * The embed's commonest request, a browser or CDN revalidating a published map it holds,
 * answered 304 from memory before Fastify sees it (server/app.ts's serverFactory calls this
 * first for every request): it asks nothing of a request id, logger, route or hook, and is
 * about a third of the CPU it costs through them (issue 26 item 7: a 304 ran at 0.46 of plain
 * Fastify's). Its headers are the route's own 304's, the `data` kind's security headers
 * included (`securityHeaders`); test/server/public-map-not-modified.test.ts holds the two the
 * same. Anything else (another path or method, no or another tag, a map not in memory) returns
 * false untouched and goes on to Fastify.
 */
export function publishedJsonNotModifiedFastPath(cache: Pick<PublicMapCache, 'peekJson'>, securityHeaders: Readonly<Record<string, string>>) {
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    const url = request.url;
    if (request.method !== 'GET' || url === undefined || !url.startsWith(PUBLIC_MAP_JSON_PREFIX)) return false;
    const query = url.indexOf('?');
    const etag = heldJsonTag(cache, url.slice(PUBLIC_MAP_JSON_PREFIX.length, query === -1 ? undefined : query), request.headers['if-none-match']);
    if (etag === undefined) return false;
    response.writeHead(304, { ...securityHeaders, ...notModifiedHeaders(etag) });
    response.end();
    return true;
  };
}

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';

export interface PublicMapOptions {
  db: Queryable;
  cache: PublicMapCache;
  /** The site's public address: the viewer pages an oEmbed request may name. */
  publicUrl: string;
}

export async function publicMapRoutes(app: FastifyInstance, { db, cache, publicUrl }: PublicMapOptions): Promise<void> {
  /**
   * Whether the caller may see test map `id`: only here is the caller identified (a database
   * read), and only here is the query read (`?key=`, checked by its schema now: the embed's
   * path does not validate its request, see below).
   */
  async function mayViewTestMap(request: FastifyRequest, reply: FastifyReply, id: string): Promise<boolean> {
    const { key } = ViewLinkQuery.parse(request.query);
    await app.access.identify(request, reply);
    await requireTokenScope(request, reply);
    const access = await loadMapAccess(db, id);
    return access !== null && can(request.principal, access.facts, 'view', { viaViewLink: holdsViewLink(access, key) });
  }

  typed(app).get(
    PUBLIC_MAP_JSON_ROUTE,
    {
      schema: { tags: ['public'], params: MapIdParams, querystring: ViewLinkQuery, response: { 200: resultOf(PublicMap), 304: z.undefined().describe('Not modified (If-None-Match)'), '4xx': ErrorBody } },
      // The hot path of every embed, lean: the schemas above document the route, but a
      // published map's answer needs no more than the id's pattern (MAP_ID, below) and ignores
      // the query, so they are not run per request; the query is parsed for test maps only.
      validatorCompiler: () => (value) => ({ value }),
      // No per-request info lines (server/http/quiet-routes.ts): errors and the cache's metrics stay.
      config: { quietRequestLog: true },
      // A browser or CDN revalidating holds this version already (most of an embed's requests):
      // answered 304 here, before the body, validation, the text check and the handler, when
      // the map's JSON is in memory and the ETag matches. A callback hook: nothing to await.
      // (Requests over HTTP get this answer before Fastify: publishedJsonNotModifiedFastPath.)
      onRequest: (request, reply, done) => {
        const etag = heldJsonTag(cache, (request.params as { id: string }).id, request.headers['if-none-match']);
        if (etag === undefined) {
          done();
          return;
        }
        // The same headers as sendEncoded's 304 (send-encoded.ts).
        void (reply as FastifyReply).code(304).headers(notModifiedHeaders(etag)).send();
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      // Until the map is known to be public, nothing about this answer may be kept.
      reply.header('cache-control', ERROR_CACHE_CONTROL);
      if (!MAP_ID.test(id)) throw new DomainError('not-found', NOT_FOUND);
      const found = await cache.json(id);
      if (found.kind === 'published') return sendEncoded(request, reply, found.body, { contentType: JSON_TYPE, cacheControl: PUBLISHED_CACHE_CONTROL });
      if (found.kind === 'absent' || !(await mayViewTestMap(request, reply, id))) throw new DomainError('not-found', NOT_FOUND);
      return sendCompressedOnce(request, reply, publicMapJson(found.map), { contentType: JSON_TYPE, cacheControl: PRIVATE_CACHE_CONTROL });
    },
  );

  // The viewer's page: rendered once per revision for a published map; the shell (which loads
  // the map itself) for a test map its viewer may see; the same shell with 404 otherwise.
  typed(app).get('/m/:id', { schema: { hide: true, params: MapIdParams, querystring: ViewerPageQuery }, validatorCompiler: () => (value) => ({ value }), config: { quietRequestLog: true } }, async (request, reply) => {
    const { id } = request.params;
    reply.header('cache-control', ERROR_CACHE_CONTROL);
    // The page speaks `?lang=`, else the map's language, else the visitor's (Accept-Language).
    const lang = (request.query as { lang?: unknown }).lang;
    const language = { param: typeof lang === 'string' ? lang.slice(0, 35) : null, preferences: parseAcceptLanguage(request.headers['accept-language']) };
    const found = MAP_ID.test(id) ? await cache.page(id, language) : ({ kind: 'absent' } as const);
    if (found.kind === 'published') {
      return sendEncoded(request, reply, found.body, { contentType: HTML_TYPE, cacheControl: PUBLISHED_CACHE_CONTROL, byLanguage: found.byVisitor === true });
    }
    const shell = await cache.shell();
    if (found.kind === 'test' && (await mayViewTestMap(request, reply, id))) {
      return sendEncoded(request, reply, shell, { contentType: HTML_TYPE, cacheControl: PRIVATE_CACHE_CONTROL });
    }
    return sendEncoded(request, reply, shell, { contentType: HTML_TYPE, cacheControl: ERROR_CACHE_CONTROL, status: 404 });
  });

  // oEmbed (events/oembed.ts): what a CMS embedding a published map's link asks for, linked
  // from the page's head. Test maps have no answer (their page is private: the same 404 as a
  // map that does not exist). Anyone's: the answer holds nothing the public page does not.
  typed(app).get(
    '/oembed',
    {
      schema: {
        tags: ['public'],
        summary: 'oEmbed for a published map',
        description: 'The oEmbed 1.0 answer (type rich) for a published map\'s page `{PUBLIC_URL}/m/{id}`: the share menu\'s embed HTML, sized to `maxwidth` and `maxheight`. JSON only: `format=xml` answers 501.',
        querystring: OEmbedQuery,
        response: { 200: OEmbedRich, '4xx': ErrorBody, 501: ErrorBody },
      },
      // Until the map is known to be published, nothing of the answer may be kept (a refused query's too).
      onRequest: (_request, reply, done) => {
        reply.header('cache-control', ERROR_CACHE_CONTROL);
        done();
      },
    },
    async (request, reply) => {
      const { url, maxwidth, maxheight, format } = request.query;
      if (format !== undefined && format !== 'json') throw new DomainError('unimplemented', 'Only format=json is answered.');
      const page = viewerPageOf(url, publicUrl);
      if (!page) throw new DomainError('not-found', 'The url is not a map page of this site.');
      const found = await cache.json(page.mapId);
      if (found.kind !== 'published') throw new DomainError('not-found', NOT_FOUND);
      const { rows } = await db.query<{ title: string }>('SELECT title FROM maps_list WHERE id = $1', [page.mapId]);
      if (!rows[0]) throw new DomainError('not-found', NOT_FOUND);
      // Anyone may ask from a browser too (the page itself is public).
      reply.header('cache-control', PUBLISHED_CACHE_CONTROL).header('access-control-allow-origin', '*');
      return oembedFor({ id: page.mapId, title: rows[0].title }, { publicUrl, locationId: page.locationId, maxwidth, maxheight, cacheAge: SHARED_MAX_AGE });
    },
  );
}
