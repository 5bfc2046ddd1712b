/**
 * `GET /api/maps/{id}/set-aside`: whether a projection set the map's stream aside (it could
 * not apply one of its events), for the editor's notice. Owner, members and admins, like the
 * map's data: the reference names no one's data, only the event to repair.
 */
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '../../events/function-results.js';
import { MapIdParams, resultOf } from '../../events/http-api.js';
import { MapSetAside } from '../../events/map-set-aside.js';
import { streams } from '../../events/streams.js';
import { setAsideRecordsOf } from '../../projections/set-aside-streams.js';
import { sqlState, type Database } from '../../ports/database.js';
import { mapAccessHook } from '../access/map-access-hook.js';
import { typed } from '../http/zod-routes.js';

const UNDEFINED_TABLE = '42P01';

export async function mapSetAsideRoutes(scope: FastifyInstance, db: Database): Promise<void> {
  const schema = { tags: ['maps'], params: MapIdParams, response: { 200: resultOf(MapSetAside), '4xx': ErrorBody } };
  typed(scope).get('/api/maps/:id/set-aside', { schema, preValidation: [scope.access.signedIn], preHandler: [mapAccessHook(db, 'view')] }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // Whichever projection set it aside first: the earliest failure is the one to repair.
    // No table yet (the runner has not started on a new database): nothing is set aside.
    const [first] = await setAsideRecordsOf(db, streams.map(request.params.id)).catch((error: unknown) => {
      if (sqlState(error) === UNDEFINED_TABLE) return [];
      throw error;
    });
    return { result: { setAside: first ? { reference: first.eventId, since: first.setAsideAt } : null } };
  });
}
