/**
 * The shapes of the HTTP routes that are not callable functions: their params and answers, as
 * zod schemas the routes declare (server/http/zod-routes.ts) and the OpenAPI document shows.
 * The read models' own records live beside them (read-models.ts, history-api.ts, billing-api.ts).
 */
import { z } from 'zod';
import { WirePosition } from './function-results.js';

/**
 * A map id in a URL. Any text up to the router's limit: a route answers not-found for an id
 * that cannot exist, the same as for one that does not, so a probe learns nothing.
 */
export const MapIdParams = z.object({ id: z.string().max(2048) });

/** `{result}`: how every read answers. */
export function resultOf<T extends z.ZodType>(result: T) {
  return z.object({ result });
}

/** `{result, position}`: a read from a read model, with the log position it reflects. */
export function resultAt<T extends z.ZodType>(result: T) {
  return z.object({ result, position: WirePosition });
}

/** A downloaded file (CSV, or JSON meant to be saved), sent as text with its own content type. */
export const FileText = z.string();

/** A published map as the viewer loads it (`GET /api/public/maps/:id`). */
export const PublicMap = z.object({
  id: z.string(),
  title: z.string(),
  state: z.number().int(),
  /** The map document (events/map-document.ts). */
  data: z.unknown(),
  /** The map stream's revision the document reflects (decimal string). */
  revision: z.string(),
  /** A test map: only its owner and admins see it. */
  test: z.boolean(),
});
export type PublicMap = z.infer<typeof PublicMap>;
