/**
 * `GET /api/maps/{id}/publication` (issue 27): which revision of the map the public sees, its
 * mode and schedule, for whoever may view the map (the editor's "Publish changes" panel).
 * Read from the map's stream (the history's newest state), so it is current the moment a
 * publish's command answers.
 */
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from '../../events/function-results.js';
import { MapIdParams, resultOf } from '../../events/http-api.js';
import { MapPublication } from '../../events/publishing-api.js';
import type { Queryable } from '../../ports/database.js';
import { mapAccessHook } from '../access/map-access-hook.js';
import { publicationOf } from '../commands/publishing-commands.js';
import { activeMap, type MapHistory } from '../history/map-history.js';
import { typed } from '../http/zod-routes.js';

export async function publicationRoutes(scope: FastifyInstance, db: Queryable, history: MapHistory): Promise<void> {
  const app = typed(scope);
  app.get(
    '/api/maps/:id/publication',
    {
      schema: { tags: ['publishing'], params: MapIdParams, response: { 200: resultOf(MapPublication), '4xx': ErrorBody } },
      preValidation: [scope.access.signedIn],
      // Whoever may view the map (owner, members, admins: events/map-access.ts), checked before the handler.
      preHandler: [mapAccessHook(db, 'view')],
    },
    async (request) => {
      const { state } = await history.stateAt(request.params.id);
      return { result: publicationOf(activeMap(state), request.principal) };
    },
  );
}
