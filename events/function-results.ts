/**
 * What each callable function answers, as zod schemas: the response schemas of the function
 * routes and the OpenAPI document. Checked against `FunctionResults` (events/functions.ts) at
 * compile time, so the two cannot drift apart.
 */
import { z } from 'zod';
import { apiTokenFunctionResults } from './api-tokens.js';
import { commentFunctionResults } from './comments-api.js';
import type { FunctionName, FunctionResults } from './functions.js';
import { dataSourceFunctionResults } from './map-data-source.js';
import { publishingFunctionResults } from './publishing-api.js';
import { sharingFunctionResults } from './sharing-api.js';
import { webhookFunctionResults } from './webhooks.js';

export const functionResults = {
  createMap: z.string().describe('The new map id.'),
  saveMap: z.null(),
  deleteMap: z.null(),
  editMap: z.object({ revision: z.string().describe("The map stream's revision after the edits (decimal).") }),
  saveMapHistory: z.object({ historyId: z.string() }),
  deleteMapHistory: z.null(),
  setMapHistoryName: z.null(),
  restoreMapHistory: z.null(),
  adminUpdateMap: z.null(),
  startCheckout: z.object({ sessionId: z.string().describe('The checkout session to watch for in billing:{uid}.') }),
  createPortalLink: z.object({ url: z.string() }),
  publishMap: z.null(),
  unpublishMap: z.null(),
  registerLicence: z.object({ verified: z.boolean(), basicUntil: z.string() }),
  ...commentFunctionResults,
  ...sharingFunctionResults,
  ...publishingFunctionResults,
  ...apiTokenFunctionResults,
  ...dataSourceFunctionResults,
  ...webhookFunctionResults,
} satisfies { [N in FunctionName]: z.ZodType<FunctionResults[N]> };

/** A global position in the event log on the wire ("commit:prepare"). */
export const WirePosition = z.string().regex(/^-?\d+:-?\d+$/).describe('A global position in the event log ("commit:prepare").');

/** A callable function's answer: its result and the position of its last event (null: nothing changed). */
export function functionAnswer<N extends FunctionName>(name: N) {
  return z.object({ result: functionResults[name], position: WirePosition.nullable() });
}

/** The error catalogue's answer (spec §8). */
export const ErrorBody = z.object({ error: z.object({ status: z.string(), message: z.string() }) });
