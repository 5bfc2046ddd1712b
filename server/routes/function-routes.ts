/**
 * `POST /api/fn/{name}` with `{data}`: the spec's callable functions. Validates the payload
 * with the function's zod schema, runs it, answers `{result, position}`.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';
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
import type { Position } from '../../events/position.js';

type Handler = (deps: BillingDeps, payload: never, meta: CommandMetadata) => Promise<{ result: unknown; position: Position | null }>;

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
};

const CallableBody = z.object({ data: z.unknown() }, { error: 'Request body must be a JSON object with a data field.' });

function isFunctionName(name: string): name is FunctionName {
  return Object.hasOwn(functionPayloads, name);
}

export async function functionRoutes(app: FastifyInstance, deps: BillingDeps): Promise<void> {
  app.post<{ Params: { name: string } }>('/api/fn/:name', async (request) => {
    const { name } = request.params;
    if (!isFunctionName(name)) throw new DomainError('not-found', `Unknown function: ${name.slice(0, 60)}`);
    if (!request.headers['content-type']?.toLowerCase().startsWith('application/json')) {
      throw new DomainError('invalid-argument', 'Request body must be JSON (Content-Type: application/json).');
    }
    const body = CallableBody.safeParse(request.body);
    if (!body.success || body.data.data === undefined) {
      throw new DomainError('invalid-argument', 'Request body must be a JSON object with a data field.');
    }
    // Every function acts for a user; refuse before looking at the payload.
    if (!request.principal) throw new DomainError('unauthenticated', 'Unauthenticated');
    // Spec §5: a verified e-mail address is needed to use the product.
    if (!request.principal.emailVerified) throw new DomainError('permission-denied', 'Verify your email address first.');
    const payload = functionPayloads[name].parse(body.data.data);
    const now = request.server.clock.now();
    const meta: CommandMetadata = {
      principal: request.principal,
      now,
      correlationId: request.correlationId,
      commandId: request.server.ids.uuid(),
    };
    const outcome = await handlers[name](deps, payload as never, meta);
    return { result: outcome.result, position: outcome.position ? formatPosition(outcome.position) : null };
  });
}
