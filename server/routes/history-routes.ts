/**
 * A map's past, for whoever may view it (its owner, members and admins; issue 8): the timeline of its events in words, page
 * by page; the map as it was at any revision; the whole audit log as CSV or JSON. Someone
 * else's map is permission-denied, and never says more than that it exists.
 */
import type { FastifyInstance } from 'fastify';
import Papa from 'papaparse';
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import { MapAtRevision, TimelinePage } from '../../events/history-api.js';
import { ErrorBody } from '../../events/function-results.js';
import { FileText, MapIdParams, resultOf } from '../../events/http-api.js';
import type { Principal } from '../../events/principal.js';
import { requirePrincipal } from '../http/access-hooks.js';
import { typed } from '../http/zod-routes.js';
import { mapAccessHook } from '../access/map-access-hook.js';
import { getMapSummary } from '../../projections/map-data.js';
import type { Queryable } from '../../ports/database.js';
import { activeMap, type MapHistory } from '../history/map-history.js';

const Revision = z.string().regex(/^\d{1,15}$/, 'must be a revision number');
const RevisionParams = MapIdParams.extend({ revision: Revision });
const TimelineQuery = z.object({
  before: Revision.optional(),
  limit: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(200, 'must be at most 200').default(50),
});

/** Spreadsheets run cells that start like a formula: quote them (as the locations CSV does). */
const cell = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

export async function historyRoutes(scope: FastifyInstance, db: Queryable, history: MapHistory): Promise<void> {
  const app = typed(scope);
  const signedIn = [scope.access.signedIn];
  const tags = ['history'];
  // Whoever may view the map (owner, members, admins: events/map-access.ts), checked before the handler.
  const viewable = [mapAccessHook(db, 'view')];
  /** The map (its route's access hook let the caller through). */
  const requireAccess = async (_principal: Principal, id: string) => {
    const row = await getMapSummary(db, id);
    if (!row) throw new DomainError('not-found', 'Map not found.');
    return row;
  };

  app.get(
    '/api/maps/:id/timeline',
    { schema: { tags, params: MapIdParams, querystring: TimelineQuery, response: { 200: resultOf(TimelinePage), '4xx': ErrorBody } }, preValidation: signedIn, preHandler: viewable },
    async (request) => {
    await requireAccess(requirePrincipal(request), request.params.id);
    const query = request.query;
    const page = await history.timeline(request.params.id, { limit: query.limit, ...(query.before !== undefined ? { before: BigInt(query.before) } : {}) });
    return { result: page };
  },
  );

  app.get(
    '/api/maps/:id/revisions/:revision',
    { schema: { tags, params: RevisionParams, response: { 200: resultOf(MapAtRevision), '4xx': ErrorBody } }, preValidation: signedIn, preHandler: viewable },
    async (request) => {
    await requireAccess(requirePrincipal(request), request.params.id);
    const revision = BigInt(request.params.revision);
    const { state } = await history.stateAt(request.params.id, revision);
    const map = activeMap(state);
    const result: MapAtRevision = { revision: revision.toString(), title: map.title, document: map.document };
    return { result };
  },
  );

  const fileName = (title: string) => title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().replace(/\s+/g, '-').slice(0, 80) || 'map';
  const attachment = (name: string) =>
    `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

  const download = { schema: { tags, params: MapIdParams, response: { 200: FileText, '4xx': ErrorBody } }, preValidation: signedIn, preHandler: viewable };
  app.get('/api/maps/:id/audit.json', download, async (request, reply) => {
    const row = await requireAccess(requirePrincipal(request), request.params.id);
    const entries = await history.auditLog(request.params.id);
    reply.header('content-disposition', attachment(`${fileName(row.title)}-audit.json`)).type('application/json; charset=utf-8');
    return JSON.stringify({ mapId: row.id, title: row.title, events: entries }, null, 2);
  });

  app.get('/api/maps/:id/audit.csv', download, async (request, reply) => {
    const row = await requireAccess(requirePrincipal(request), request.params.id);
    const entries = await history.auditLog(request.params.id);
    const csv = Papa.unparse(
      entries.map((entry) => ({
        revision: entry.revision,
        at: entry.at,
        actor: cell(entry.actor.name),
        actor_id: entry.actor.uid ?? '',
        event: entry.type,
        summary: cell(entry.summary),
        locations: entry.locationIds.join('; '),
      })),
      { columns: ['revision', 'at', 'actor', 'actor_id', 'event', 'summary', 'locations'], newline: '\r\n' },
    );
    reply.header('content-disposition', attachment(`${fileName(row.title)}-audit.csv`)).type('text/csv; charset=utf-8');
    return `\uFEFF${csv}`;
  });
}
