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
import { functionPayloads, type FunctionName, type FunctionResults } from '../../events/functions.js';
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
import { publishingFunctionHandlers } from '../commands/publishing-commands.js';
import { apiTokenFunctionHandlers } from '../commands/api-token-commands.js';
import { dataSourceFunctionHandlers, type DataSourceDeps } from '../commands/data-source-commands.js';
import { webhookFunctionHandlers, type WebhookDeps } from '../commands/webhook-commands.js';
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
export type FunctionDeps = BillingDeps & CommentDeps & SharingDeps & WebhookDeps & DataSourceDeps;

/** A function's handler: its payload as its schema gives it (functionPayloads), its result as the API documents it. */
type Handler<N extends FunctionName> = (
  deps: FunctionDeps,
  payload: z.output<(typeof functionPayloads)[N]>,
  meta: CommandMetadata,
) => Promise<{ result: FunctionResults[N]; position: Position | null }>;

/** Every function's handler, each checked against its own payload and result types. */
const handlers: { [N in FunctionName]: Handler<N> } = {
  createMap,
  saveMap,
  deleteMap,
  editMap,
  saveMapHistory,
  setMapHistoryName,
  deleteMapHistory,
  restoreMapHistory,
  adminUpdateMap,
  startCheckout,
  createPortalLink,
  publishMap,
  unpublishMap,
  registerLicence,
  ...commentFunctionHandlers,
  inviteToMap,
  acceptMapInvitation,
  revokeMapInvitation,
  setMapMemberRole,
  removeMapMember,
  leaveMap,
  setMapViewLink,
  ...publishingFunctionHandlers,
  ...apiTokenFunctionHandlers,
  ...dataSourceFunctionHandlers,
  ...webhookFunctionHandlers,
};

const FUNCTION_NAMES = Object.keys(functionPayloads) as FunctionName[];

/** Callable requests are JSON; anything else is refused before the caller or payload is looked at. */
export async function jsonBodyOnly(request: FastifyRequest): Promise<void> {
  if (!request.headers['content-type']?.toLowerCase().startsWith('application/json')) {
    throw new DomainError('invalid-argument', 'Request body must be JSON (Content-Type: application/json).');
  }
}

/** The route of one function: its body and answer schemas, and its handler, typed by its name. */
function functionRoute<N extends FunctionName>(app: FastifyInstance, deps: FunctionDeps, name: N): void {
  const handler: Handler<N> = handlers[name];
  // The body's type is the route's own schema's (its validation runs before the handler).
  app.post<{ Body: { data: z.output<(typeof functionPayloads)[N]> } }>(
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
      const outcome = await handler(deps, request.body.data, meta);
      return { result: outcome.result, position: outcome.position ? formatPosition(outcome.position) : null };
    },
  );
}

export async function functionRoutes(app: FastifyInstance, deps: FunctionDeps): Promise<void> {
  const api = typed(app);
  for (const name of FUNCTION_NAMES) functionRoute(app, deps, name);
  api.post('/api/fn/:name', { schema: { hide: true, params: z.object({ name: z.string() }) } }, async (request) => {
    throw new DomainError('not-found', `Unknown function: ${request.params.name.slice(0, 60)}`);
  });
}
