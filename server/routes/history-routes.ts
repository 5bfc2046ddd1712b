/**
 * A map's past, for its owner and admins (issue 8): the timeline of its events in words, page
 * by page; the map as it was at any revision; the whole audit log as CSV or JSON. Someone
 * else's map is permission-denied, and never says more than that it exists.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import Papa from 'papaparse';
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import type { MapAtRevision } from '../../events/history-api.js';
import { getMapData } from '../../projections/map-data.js';
import type { Queryable } from '../db/database.js';
import { activeMap, type MapHistory } from '../history/map-history.js';

const Revision = z.string().regex(/^\d{1,15}$/, 'must be a revision number');
const TimelineQuery = z.object({
  before: Revision.optional(),
  limit: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(200, 'must be at most 200').default(50),
});

/** Zod problems as the error catalogue's invalid-argument, naming the field. */
function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new DomainError('invalid-argument', `${issue.path.join('.') || 'query'}: ${issue.message}`);
}

/** Spreadsheets run cells that start like a formula: quote them (as the locations CSV does). */
const cell = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

export async function historyRoutes(app: FastifyInstance, db: Queryable, history: MapHistory): Promise<void> {
  /** The map, if the caller owns it or is an admin. */
  const requireAccess = async (request: FastifyRequest<{ Params: { id: string } }>) => {
    const principal = request.principal;
    if (!principal) throw new DomainError('unauthenticated', 'Unauthenticated');
    const row = await getMapData(db, request.params.id);
    if (!row) throw new DomainError('not-found', 'Map not found.');
    if (row.uid !== principal.uid && !principal.admin) throw new DomainError('permission-denied', 'You do not have access to this map.');
    return row;
  };

  app.get<{ Params: { id: string }; Querystring: Record<string, string> }>('/api/maps/:id/timeline', async (request) => {
    await requireAccess(request);
    const query = parse(TimelineQuery, request.query);
    const page = await history.timeline(request.params.id, { limit: query.limit, ...(query.before !== undefined ? { before: BigInt(query.before) } : {}) });
    return { result: page };
  });

  app.get<{ Params: { id: string; revision: string } }>('/api/maps/:id/revisions/:revision', async (request) => {
    await requireAccess(request);
    const revision = BigInt(parse(Revision.refine((value) => value.length > 0), request.params.revision));
    const { state } = await history.stateAt(request.params.id, revision);
    const map = activeMap(state);
    const result: MapAtRevision = { revision: revision.toString(), title: map.title, document: map.document };
    return { result };
  });

  const fileName = (title: string) => title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().replace(/\s+/g, '-').slice(0, 80) || 'map';
  const attachment = (name: string) =>
    `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

  app.get<{ Params: { id: string } }>('/api/maps/:id/audit.json', async (request, reply) => {
    const row = await requireAccess(request);
    const entries = await history.auditLog(request.params.id);
    reply.header('content-disposition', attachment(`${fileName(row.title)}-audit.json`)).type('application/json; charset=utf-8');
    return JSON.stringify({ mapId: row.id, title: row.title, events: entries }, null, 2);
  });

  app.get<{ Params: { id: string } }>('/api/maps/:id/audit.csv', async (request, reply) => {
    const row = await requireAccess(request);
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
