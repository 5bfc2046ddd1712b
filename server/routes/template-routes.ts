/**
 * Built-in maps (server/templates/built-in-maps.ts) as starting points for a new map.
 *
 * - `GET /api/templates`: `{result: [{id, name, description, source, regionCount, width,
 *   height, previewUrl}]}`, for anyone.
 * - `GET /api/templates/:id/preview`: a small SVG of the map for the new-map page's cards.
 * - `POST /api/templates/:id/instantiate` (signed-in, verified): stores the map's SVG through
 *   the file-storage port (content-addressed: stored once, shared by every map made from it,
 *   immutable like every file) and answers `{result: MapDocument}`, a complete version 2
 *   document with one layer holding that SVG and one location per region. The client then
 *   creates the map with it (`createMap {title, mapData}`).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ErrorBody } from '../../events/function-results.js';
import { resultOf } from '../../events/http-api.js';
import { MapDocument as MapDocumentSchema } from '../../events/map-document.js';
import { typed } from '../http/zod-routes.js';
import { DomainError } from '../../events/errors.js';
import type { MapDocument } from '../../events/map-document.js';
import { contentId, type FileStore } from '../files/file-store.js';
import { sanitizeSvg } from '../files/sanitize-svg.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import { builtInMap, builtInMapDocument, isTemplateId, TEMPLATE_IDS, type BuiltInMap, type TemplateId } from '../templates/built-in-maps.js';
import { SVG_CONTENT_SECURITY_POLICY, verifiedUser } from './file-routes.js';

export interface TemplateRouteOptions {
  files: FileStore;
  rateLimiter?: RateLimiter;
}

export interface TemplateSummary {
  id: TemplateId;
  name: string;
  description: string;
  source: string;
  regionCount: number;
  width: number;
  height: number;
  previewUrl: string;
}

/** Instantiations per user per hour (each is a document of a few hundred locations). */
export const INSTANTIATE_RATE = { max: 100, windowMs: 60 * 60 * 1000 };

export function templateSummary(map: BuiltInMap): TemplateSummary {
  return {
    id: map.id,
    name: map.name,
    description: map.description,
    source: map.source,
    regionCount: map.regions.length,
    width: map.width,
    height: map.height,
    previewUrl: `/api/templates/${map.id}/preview`,
  };
}

function templateOf(id: string): BuiltInMap {
  if (!isTemplateId(id)) throw new DomainError('not-found', `There is no built-in map called ${id.slice(0, 40)}.`);
  return builtInMap(id);
}

export async function templateRoutes(app: FastifyInstance, { files, rateLimiter }: TemplateRouteOptions): Promise<void> {
  // Each map's SVG goes through the same sanitiser as uploads, once, then is stored once.
  const stored = new Map<TemplateId, Promise<{ url: string; width: number; height: number }>>();
  const storedFile = (map: BuiltInMap) => {
    let file = stored.get(map.id);
    if (!file) {
      file = (async () => {
        const { svg, width, height } = sanitizeSvg(map.svg);
        const bytes = new TextEncoder().encode(svg);
        const record = await files.put(bytes, { id: contentId(bytes), owner: null, kind: 'svg', contentType: 'image/svg+xml', width, height });
        return { url: record.url, width: record.width, height: record.height };
      })();
      // A failed write is tried again by the next request.
      file.catch(() => stored.delete(map.id));
      stored.set(map.id, file);
    }
    return file;
  };

  const api = typed(app);
  const tags = ['templates'];
  const TemplateParams = z.object({ id: z.string() });
  const Summary = z.object({
    id: z.enum(TEMPLATE_IDS),
    name: z.string(),
    description: z.string(),
    source: z.string(),
    regionCount: z.number().int(),
    width: z.number(),
    height: z.number(),
    previewUrl: z.string(),
  });
  api.get('/api/templates', { schema: { tags, response: { 200: resultOf(z.array(Summary)) } } }, async () => ({
    result: TEMPLATE_IDS.map((id) => templateSummary(builtInMap(id))),
  }));

  api.get('/api/templates/:id/preview', { schema: { tags, params: TemplateParams } }, async (request, reply) => {
    const map = templateOf(request.params.id);
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', SVG_CONTENT_SECURITY_POLICY)
      .header('cache-control', 'public, max-age=86400')
      .send(map.preview);
  });

  api.post(
    '/api/templates/:id/instantiate',
    { schema: { tags, params: TemplateParams, response: { 200: resultOf(MapDocumentSchema), '4xx': ErrorBody } } },
    async (request) => {
    const user = verifiedUser(request);
    const map = templateOf(request.params.id);
    if (rateLimiter) await rateLimiter.hit('instantiate', INSTANTIATE_RATE, [user.uid]);
    const file = await storedFile(map);
    const document: MapDocument = builtInMapDocument(map, { kind: 'svg', ...file });
    return { result: document };
    },
  );
}
