/**
 * The embed SDK's postMessage protocol (issue 30): what a host page (through /embed.js,
 * client/src/embed-sdk/embed.ts) asks of an embedded map, and what the map (/m/{id}, its bridge
 * client/src/features/viewer/embed-bridge.ts) tells the host page. One set of schemas for both
 * sides. zod/mini: the same zod, tree-shaken, so /embed.js stays within its 6 KB gzipped.
 *
 * Every message is an object with `mapfold: 1` (the protocol's version, and the marker that sets
 * it apart from any other postMessage traffic on the page) and a `type`. Origins are checked on
 * both sides: the map obeys only the origin it was given in its address (`?host=`) and
 * posts only to it; the SDK listens only to its own iframe's window at the map's origin.
 */
import * as z from 'zod/mini';

import { EMBED_PROTOCOL } from './embed-protocol.js';

export { EMBED_ORIGIN_PARAM, EMBED_PROTOCOL, hostOrigin } from './embed-protocol.js';

const id = z.string().check(z.minLength(1), z.maxLength(200));
const message = <T extends string, S extends z.core.$ZodLooseShape>(type: T, shape: S) =>
  z.object({ mapfold: z.literal(EMBED_PROTOCOL), type: z.literal(type), ...shape });

/** Host → map. */
export const EmbedCommand = z.discriminatedUnion('type', [
  /** Open a location's details (and fly to it, switching floor if needed). */
  message('openLocation', { id }),
  /** Show a floor (a layer), by its id or its name. */
  message('setFloor', { floor: id }),
  /** Filter the directory and the map by a search text ('' clears it). */
  message('search', { query: z.string().check(z.maxLength(200)) }),
]);
export type EmbedCommand = z.infer<typeof EmbedCommand>;

/** Map → host. */
export const EmbedEvent = z.discriminatedUnion('type', [
  /** The map is on screen and listening for commands. */
  message('ready', { mapId: id }),
  message('locationOpened', { id, title: z.string() }),
  message('floorChanged', { floor: id }),
  /** A search settled (typed by the visitor or asked by the host page). */
  message('searchPerformed', { query: z.string() }),
]);
export type EmbedEvent = z.infer<typeof EmbedEvent>;

type Payload<M> = M extends unknown ? Omit<M, 'mapfold'> : never;
/** A message as written, before the marker is added. */
export type EmbedCommandPayload = Payload<EmbedCommand>;
export type EmbedEventPayload = Payload<EmbedEvent>;
export type EmbedEventType = EmbedEvent['type'];
