/**
 * The basemap of geographic maps, served by the app itself (issue 29 item 2):
 *
 * - `GET /basemap/style.json?theme=light|dark&lang=xx`: the MapLibre style (basemap-style.ts).
 *   Embedded (BASEMAP_URL unset): its source is `pmtiles://{PUBLIC_URL}/basemap/world.<hash>.pmtiles`
 *   (MapLibre reads it with the `pmtiles` package's protocol). BASEMAP_URL an archive: the same
 *   style over that archive. BASEMAP_URL a style: 302 to it (theme and language are then that
 *   style's). Cached five minutes: a new archive's address reaches viewers soon.
 * - `GET /basemap/world.<hash>.pmtiles`: the embedded archive by its content's hash, cached for a
 *   year (immutable); another hash is 404. `GET /basemap/world.pmtiles`: the same bytes under a
 *   stable name, revalidated by ETag after five minutes.
 *   Both answer Range requests (206 with Content-Range; 416 with `bytes * /size` for a range
 *   past the end or malformed; If-Range honoured), 304 to a matching If-None-Match, and are
 *   readable by any site (CORS `*`, CORP cross-origin), as the viewer is embedded anywhere.
 * - `GET /basemap/fonts/{fontstack}/{start}-{end}.pbf`: the labels' glyphs (basemap-assets.ts),
 *   from the first member of the comma-separated stack that is kept; a range not kept is 404
 *   with an empty body (MapLibre leaves those characters undrawn). `GET /basemap/sprites/v4/
 *   {light|dark}[@2x].{json|png}`: the icons. Both cached a day, revalidated by ETag, readable
 *   by any site. The style points at them unless BASEMAP_GLYPHS_URL / BASEMAP_SPRITE_URL say
 *   otherwise.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import type { Config } from '../config.js';
import { typed } from '../http/zod-routes.js';
import { basemapAssets, SPRITE_VERSION, type Asset, type BasemapAssets } from './basemap-assets.js';
import { basemapStyle, BASEMAP_THEMES, EMBEDDED_ATTRIBUTION, OSM_ATTRIBUTION } from './basemap-style.js';
import { archiveLoader, EMBEDDED_ARCHIVE_NAME, parseRange, type ArchiveLoader } from './embedded-archive.js';

export interface BasemapRouteOptions {
  config: Pick<Config, 'publicUrl' | 'basemap'>;
  /** The embedded archive (tests give another file). */
  archive?: ArchiveLoader;
  /** The label fonts and icons (tests give other folders). */
  assets?: BasemapAssets;
}

export const ARCHIVE_CONTENT_TYPE = 'application/vnd.pmtiles';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=300';
/** Fonts and icons: their addresses carry no hash, but they change only with a release. */
const A_DAY = 'public, max-age=86400';

const StyleQuery = z.object({
  theme: z.enum(BASEMAP_THEMES).default('light'),
  /** BCP 47: a language, perhaps with a script or region (`en`, `pt-BR`, `zh-Hant`). */
  lang: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en or pt-BR')
    .default('en'),
});

const ArchiveParams = z.object({ file: z.string() });
const GlyphParams = z.object({ fontstack: z.string(), range: z.string() });
const SpriteParams = z.object({ file: z.string() });

/** Headers every basemap answer carries: any site's page may read it. */
function shareable(reply: FastifyReply): FastifyReply {
  return reply
    .header('access-control-allow-origin', '*')
    .header('access-control-expose-headers', 'ETag, Content-Range, Content-Length, Accept-Ranges')
    .header('cross-origin-resource-policy', 'cross-origin');
}

/** A font or icon file with its headers, 304 to a matching If-None-Match; 404 with an empty body when there is none. */
function sendAsset(reply: FastifyReply, asset: Asset | null, ifNoneMatch: string | undefined): FastifyReply {
  shareable(reply);
  if (!asset) return reply.code(404).header('cache-control', SHORT).send();
  reply.header('etag', asset.etag).header('cache-control', A_DAY);
  if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === asset.etag)) return reply.code(304).send();
  return reply.type(asset.contentType).header('content-length', asset.bytes.length).send(asset.bytes);
}

export async function basemapRoutes(app: FastifyInstance, { config, archive = archiveLoader(), assets = basemapAssets() }: BasemapRouteOptions): Promise<void> {
  const base = config.publicUrl.replace(/\/+$/, '');
  const { source, attribution, glyphsUrl, spriteUrl } = config.basemap;
  const archiveFile = new RegExp(`^${EMBEDDED_ARCHIVE_NAME}(?:\\.([0-9a-f]{12}))?\\.pmtiles$`);

  typed(app).get(
    '/basemap/style.json',
    { schema: { tags: ['basemap'], querystring: StyleQuery }, config: { quietRequestLog: true } },
    async (request, reply) => {
      shareable(reply);
      if (source.kind === 'style') return reply.header('cache-control', SHORT).redirect(source.url, 302);
      let sourceUrl: string;
      if (source.kind === 'pmtiles') sourceUrl = `pmtiles://${source.url}`;
      else {
        const loaded = await archive();
        if (!loaded) throw new DomainError('not-found', 'The embedded basemap is missing: run npm run build (scripts/build-basemap.ts makes it).');
        sourceUrl = `pmtiles://${base}/basemap/${EMBEDDED_ARCHIVE_NAME}.${loaded.hash}.pmtiles`;
      }
      const { theme, lang } = request.query;
      const style = basemapStyle({
        theme,
        lang,
        sourceUrl,
        attribution: attribution ?? (source.kind === 'embedded' ? EMBEDDED_ATTRIBUTION : OSM_ATTRIBUTION),
        glyphsUrl: glyphsUrl ?? `${base}/basemap/fonts/{fontstack}/{range}.pbf`,
        spriteUrl: spriteUrl ?? `${base}/basemap/sprites/${SPRITE_VERSION}/${theme}`,
      });
      return reply.header('cache-control', SHORT).type('application/json; charset=utf-8').send(JSON.stringify(style));
    },
  );

  typed(app).get(
    '/basemap/fonts/:fontstack/:range',
    { schema: { tags: ['basemap'], params: GlyphParams }, config: { quietRequestLog: true } },
    async (request, reply) =>
      sendAsset(reply, await assets.glyphs(request.params.fontstack, request.params.range), request.headers['if-none-match']),
  );

  typed(app).get(
    `/basemap/sprites/${SPRITE_VERSION}/:file`,
    { schema: { tags: ['basemap'], params: SpriteParams }, config: { quietRequestLog: true } },
    async (request, reply) => sendAsset(reply, await assets.sprite(request.params.file), request.headers['if-none-match']),
  );

  // A tile reader's preflight (Range is not a simple header for every browser).
  app.options('/basemap/:file', { schema: { hide: true, params: ArchiveParams } }, async (_request, reply) =>
    shareable(reply)
      .header('access-control-allow-methods', 'GET, HEAD, OPTIONS')
      .header('access-control-allow-headers', 'Range, If-Range, If-None-Match, If-Match')
      .header('access-control-max-age', '86400')
      .code(204)
      .send(),
  );

  typed(app).get(
    '/basemap/:file',
    { schema: { tags: ['basemap'], params: ArchiveParams }, config: { quietRequestLog: true } },
    async (request, reply) => {
      const match = archiveFile.exec(request.params.file);
      const loaded = match ? await archive() : null;
      if (!match || !loaded || (match[1] !== undefined && match[1] !== loaded.hash)) throw new DomainError('not-found', 'No such basemap.');
      const { bytes, hash } = loaded;
      const etag = `"${hash}"`;
      shareable(reply)
        .header('etag', etag)
        .header('accept-ranges', 'bytes')
        .header('cache-control', match[1] ? IMMUTABLE : SHORT)
        .header('content-type', ARCHIVE_CONTENT_TYPE);
      const ifNoneMatch = request.headers['if-none-match'];
      if (ifNoneMatch && ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
      // If-Range naming another version: the whole (current) file, not a piece of it.
      const ifRange = request.headers['if-range'];
      const range = ifRange !== undefined && ifRange !== etag ? null : parseRange(request.headers.range, bytes.length);
      if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${bytes.length}`).send();
      if (range === null) return reply.header('content-length', bytes.length).send(bytes);
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${bytes.length}`)
        .header('content-length', range.end - range.start + 1)
        .send(bytes.subarray(range.start, range.end + 1));
    },
  );
}
