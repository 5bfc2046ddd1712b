/**
 * The access policy as a Fastify route hook: a map route (`/api/maps/:id/...`) names the
 * action it needs (`mapAccess(db, 'view')`) and the hook refuses before the handler runs, with
 * the same answers as the functions and the live hub (server/access/map-access-facts.ts).
 * It runs after the parameters are validated (preHandler), so a malformed id is refused as
 * such and never looked up.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MapAction } from '../../events/map-access.js';
import type { Queryable } from '../../ports/database.js';
import { requireMapAccess, type MapAccess } from './map-access-facts.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The map's access facts, once a map access hook let the request through. */
    mapAccess: MapAccess | null;
  }
}

export function mapAccessHook(db: Queryable, action: MapAction): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request) => {
    const { id } = request.params as { id: string };
    request.mapAccess = await requireMapAccess(db, request.principal, id, action);
  };
}
