/**
 * `POST /api/fn/{name}` with `{data}`: the spec's callable functions, one route per function,
 * each declaring its payload and answer schemas (events/functions.ts, events/function-results.ts).
 * In order: the body must be JSON, the caller signed in with a verified address (before the
 * payload is looked at), then the payload is validated and the function runs. Any other name
 * answers not-found.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import { ErrorBody, functionAnswer } from '../../events/function-results.js';
import { functionPayloads, type FunctionName } from '../../events/functions.js';
import { formatPosition } from '../../events/position.js';
import type { CommandMetadata } from '../commands/command-handler.js';
import {
  adminUpdateMap,
  createMap,
  deleteMap,
  deleteMapHistory,
  editMap,
  restoreMapHistory,
  saveMap,
  saveMapHistory,
  setMapHistoryName,
} from '../commands/map-commands.js';
import { createPortalLink, publishMap, registerLicence, startCheckout, unpublishMap, type BillingDeps } from '../billing/billing-functions.js';
import { commentFunctionHandlers, type CommentDeps } from '../commands/comment-commands.js';
import type { Position } from '../../events/position.js';
import {
  acceptMapInvitation,
  inviteToMap,
  leaveMap,
  removeMapMember,
  revokeMapInvitation,
  setMapMemberRole,
  setMapViewLink,
  type SharingDeps,
} from '../commands/sharing-commands.js';
import { typed } from '../http/zod-routes.js';

/** What the functions are given: billing's (and the maps') services, comments' mailer, sharing's view link keys. */
export type FunctionDeps = BillingDeps & CommentDeps & SharingDeps;

type Handler = (deps: FunctionDeps, payload: never, meta: CommandMetadata) => Promise<{ result: unknown; position: Position | null }>;

const handlers: Record<FunctionName, Handler> = {
  createMap: createMap as Handler,
  saveMap: saveMap as Handler,
  deleteMap: deleteMap as Handler,
  editMap: editMap as Handler,
  saveMapHistory: saveMapHistory as Handler,
  setMapHistoryName: setMapHistoryName as Handler,
  deleteMapHistory: deleteMapHistory as Handler,
  restoreMapHistory: restoreMapHistory as Handler,
  adminUpdateMap: adminUpdateMap as Handler,
  startCheckout: startCheckout as Handler,
  createPortalLink: createPortalLink as Handler,
  publishMap: publishMap as Handler,
  unpublishMap: unpublishMap as Handler,
  registerLicence: registerLicence as Handler,
  ...(commentFunctionHandlers as Record<keyof typeof commentFunctionHandlers, Handler>),
  inviteToMap: inviteToMap as Handler,
  acceptMapInvitation: acceptMapInvitation as Handler,
  revokeMapInvitation: revokeMapInvitation as Handler,
  setMapMemberRole: setMapMemberRole as Handler,
  removeMapMember: removeMapMember as Handler,
  leaveMap: leaveMap as Handler,
  setMapViewLink: setMapViewLink as Handler,
};

const FUNCTION_NAMES = Object.keys(functionPayloads) as FunctionName[];

/** Callable requests are JSON; anything else is refused before the caller or payload is looked at. */
export async function jsonBodyOnly(request: FastifyRequest): Promise<void> {
  if (!request.headers['content-type']?.toLowerCase().startsWith('application/json')) {
    throw new DomainError('invalid-argument', 'Request body must be JSON (Content-Type: application/json).');
  }
}

export async function functionRoutes(app: FastifyInstance, deps: FunctionDeps): Promise<void> {
  const api = typed(app);
  for (const name of FUNCTION_NAMES) {
    api.post(
      `/api/fn/${name}`,
      {
        schema: {
          tags: ['functions'],
          operationId: name,
          body: z.object({ data: functionPayloads[name] }),
          response: { 200: functionAnswer(name), '4xx': ErrorBody },
        },
        // Every function acts for a user with a verified address (spec §5): refused before the payload is read.
        preValidation: [jsonBodyOnly, app.access.verified],
      },
      async (request) => {
        const meta: CommandMetadata = {
          principal: request.principal,
          now: request.server.clock.now(),
          correlationId: request.correlationId,
          commandId: request.server.ids.uuid(),
        };
        const outcome = await handlers[name](deps, request.body.data as never, meta);
        return { result: outcome.result, position: outcome.position ? formatPosition(outcome.position) : null } as never;
      },
    );
  }
  api.post('/api/fn/:name', { schema: { hide: true, params: z.object({ name: z.string() }) } }, async (request) => {
    throw new DomainError('not-found', `Unknown function: ${request.params.name.slice(0, 60)}`);
  });
}
