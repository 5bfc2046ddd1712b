/**
 * The public side of a map: the read API the viewer loads (`GET /api/public/maps/:id`) and the
 * viewer's own page (`GET /m/:id`, the `viewer.html` entry of the client build), which any site
 * may frame while every other page is framed by this site only (its headers are set with the
 * others' in server/security/security-headers.ts).
 *
 * Who may view: live, demo, pro and admin maps (state 1 and above) are public. A test map
 * (state 0) is shown to whoever may view it (events/map-access.ts: its owner, members, admins,
 * and holders of its view link, `?key=`), marked `test: true`; anyone else gets the same 404 as
 * for a map that does not exist, so a test map's existence is not revealed.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../events/errors.js';
import { withoutForeignLayerFiles } from '../../events/map-document.js';
import { usesTestSlot } from '../../events/map-states.js';
import { ErrorBody } from '../../events/function-results.js';
import { MapIdParams, PublicMap, resultOf } from '../../events/http-api.js';
import type { Queryable } from '../db/database.js';
import { can } from '../../events/map-access.js';
import { holdsViewLink, loadMapAccess } from '../access/map-access-facts.js';
import { typed } from '../http/zod-routes.js';

export type { PublicMap } from '../../events/http-api.js';

interface Row {
  id: string;
  uid: string;
  title: string;
  data: unknown;
  revision: string;
  state: number;
}

/** The map data joined with the map's state from the maps list, in one query. */
async function loadPublicMap(db: Queryable, id: string): Promise<Row | null> {
  const { rows } = await db.query<Row>(
    `SELECT d.id, d.uid, d.title, d.data, d.revision::text AS revision, l.state
       FROM map_data d JOIN maps_list l ON l.id = d.id
      WHERE d.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

const NOT_FOUND = 'Map not found.';
/** `?key=`: the map's view link key ("anyone with the link can view"). */
const ViewLinkQuery = z.object({ key: z.string().max(128).optional() });
const MAP_ID = /^[A-Za-z0-9_-]{1,128}$/;

export interface PublicMapOptions {
  db: Queryable;
  /** Where the built client lives (its `viewer.html`). */
  clientDist: string;
}

export async function publicMapRoutes(app: FastifyInstance, { db, clientDist }: PublicMapOptions): Promise<void> {
  typed(app).get(
    '/api/public/maps/:id',
    {
      schema: { tags: ['public'], params: MapIdParams, querystring: ViewLinkQuery, response: { 200: resultOf(PublicMap), 304: z.undefined().describe('Not modified (If-None-Match)'), '4xx': ErrorBody } },
      // Signed out is fine; a test map is shown to its owner and admins, so read who is calling.
      onRequest: [app.access.identify],
    },
    async (request, reply) => {
    const { id } = request.params;
    if (!MAP_ID.test(id)) throw new DomainError('not-found', NOT_FOUND);
    const row = await loadPublicMap(db, id);
    if (!row) throw new DomainError('not-found', NOT_FOUND);
    const test = usesTestSlot(row.state);
    if (test) {
      const access = await loadMapAccess(db, id);
      if (!access || !can(request.principal, access.facts, 'view', { viaViewLink: holdsViewLink(access, request.query.key) })) {
        throw new DomainError('not-found', NOT_FOUND);
      }
      // Only for the people allowed to see it: never kept by a shared cache.
      reply.header('cache-control', 'private, no-store');
    } else {
      // Public, but always revalidated: a published change shows on the next load.
      reply.header('cache-control', 'public, no-cache');
      const etag = `"${row.id}.${row.revision}.${row.state}"`;
      reply.header('etag', etag);
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    }
    // A row written before floors had to be the product's own files may still name another
    // site's drawing (until the read model is rebuilt): never hand it to a viewer.
    const data = withoutForeignLayerFiles(row.data);
    const result: PublicMap = { id: row.id, title: row.title, state: row.state, data, revision: row.revision, test };
    return { result };
    },
  );

  // The viewer's page: its own small entry of the client build, framable by any site.
  const viewerHtml = path.join(clientDist, 'viewer.html');
  // A page, not the API: its id is the viewer's to look up (an unknown one shows its own not-found).
  app.get('/m/:id', { schema: { hide: true, params: MapIdParams } }, async (_request, reply) => {
    let html: string;
    try {
      // Read per request, like the static files: a rebuilt client is served without a restart.
      html = await readFile(viewerHtml, 'utf8');
    } catch {
      throw new DomainError('not-found', 'The viewer is not built (npm run build).');
    }
    return reply
      .header('cache-control', 'no-cache')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
