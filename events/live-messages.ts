/**
 * The websocket protocol of `/api/live`: one versioned, discriminated union per direction,
 * shared by the server hub and the client. Bump {@link LIVE_PROTOCOL_VERSION} on any change
 * a peer of the previous version could misread.
 */
import { z } from 'zod';
import { presenceClientFields, presenceServerFields } from './presence.js';
import { withSafeText } from './safe-text.js';

export const LIVE_PROTOCOL_VERSION = 1;
const v = z.literal(LIVE_PROTOCOL_VERSION);
const topic = z.string().min(1).max(200);

/** What a client sends; no text in it may hold NUL or a lone surrogate (safe-text.ts). */
export const ClientMessage = withSafeText(z.discriminatedUnion('type', [
  z.object({ v, type: z.literal('subscribe'), topic }),
  z.object({ v, type: z.literal('unsubscribe'), topic }),
  z.object({ v, type: z.literal('ping') }),
  /**
   * Token-based sign-in (Clerk): sent first after open, then again with each fresh token
   * before the previous one expires. Cookie sessions need no message.
   */
  z.object({ v, type: z.literal('auth'), token: z.string().min(1).max(8192) }),
  /** Presence in a map (events/presence.ts): join or update with the tab's state, leave with null. */
  z.object({ v, type: z.literal('presence'), ...presenceClientFields }),
]));
export type ClientMessage = z.infer<typeof ClientMessage>;

export const ServerMessage = z.discriminatedUnion('type', [
  /** Sent once the socket is authenticated. */
  z.object({ v, type: z.literal('welcome'), uid: z.string() }),
  /**
   * The whole current value of a topic's read model, sent on subscribe and after each change.
   * `position` is the global position of the last event the read model reflects ("c:p").
   */
  z.object({ v, type: z.literal('snapshot'), topic, position: z.string(), data: z.unknown() }),
  /** A subscription refused or ended (permission-denied, invalid-argument, not-found). */
  z.object({ v, type: z.literal('error'), topic: topic.optional(), code: z.string(), message: z.string() }),
  z.object({ v, type: z.literal('pong') }),
  /**
   * The subscriber's role in the topic's map changed (issue 16), at once: an editor made a
   * viewer turns read-only. `role` null: no role (an admin). Losing access is an `error`
   * (permission-denied) and ends the subscription.
   */
  z.object({ v, type: z.literal('access'), topic, role: z.enum(['owner', 'editor', 'viewer']).nullable() }),
  /** The other peers of a map the socket is present in, and their changes (events/presence.ts). */
  z.object({ v, type: z.literal('presence'), ...presenceServerFields }),
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/** Close code for an unauthenticated socket (4000-4999 are the application's own). */
export const CLOSE_UNAUTHENTICATED = 4401;

/** Close code for a socket opened from another site's page. */
export const CLOSE_FORBIDDEN_ORIGIN = 4403;
