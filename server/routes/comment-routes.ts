/**
 * `GET /api/maps/{id}/comments`: a map's comment threads, newest activity first, for the
 * owner, members and admins (server/comments/map-comments-read.ts). The live topic
 * `comments:{mapId}` pushes the same answer after each change.
 */
import type { FastifyInstance } from 'fastify';
import { MapComments } from '../../events/comments-api.js';
import { ErrorBody } from '../../events/function-results.js';
import { MapIdParams, resultAt } from '../../events/http-api.js';
import { formatPosition } from '../../events/position.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { readMapComments, requireCommentReader } from '../comments/map-comments-read.js';
import type { Queryable } from '../../ports/database.js';
import { typed } from '../http/zod-routes.js';

export async function commentRoutes(scope: FastifyInstance, db: Queryable): Promise<void> {
  const app = typed(scope);
  app.get(
    '/api/maps/:id/comments',
    {
      schema: { tags: ['maps'], params: MapIdParams, response: { 200: resultAt(MapComments), '4xx': ErrorBody } },
      preValidation: [scope.access.signedIn],
    },
    async (request) => {
      await requireCommentReader(db, request.principal, request.params.id);
      // The checkpoint first: the rows read after it are at least that new.
      const checkpoint = await readCheckpoint(db, 'map_comments');
      const result = await readMapComments(db, request.params.id);
      return { result, position: checkpoint ? formatPosition(checkpoint.position) : '-1:-1' };
    },
  );
}
