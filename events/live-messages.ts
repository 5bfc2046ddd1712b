/**
 * The websocket protocol of `/api/live`: one versioned, discriminated union per direction,
 * shared by the server hub and the client. Bump {@link LIVE_PROTOCOL_VERSION} on any change
 * a peer of the previous version could misread.
 *
 * Version 2 (issue 16): `map:{id}` pushes the map stream's recorded events with their stream
 * revisions (`events`), never the document; a client subscribes with the revision it has
 * (`since`) and gets the missing events, or one `snapshot` when it has none or is more than
 * {@link MAX_CATCH_UP_EVENTS} behind. Every topic's payload is typed here.
 */
import { z } from 'zod';
import { presenceClientFields, presenceServerFields } from './presence.js';
import { BillingSnapshot } from './billing-api.js';
import { MapComments } from './comments-api.js';
import { MapDocument } from './map-document.js';
import { MapEvent } from './map.js';
import { HistoryEntry, MapListItem } from './read-models.js';
import { withSafeText } from './safe-text.js';

export const LIVE_PROTOCOL_VERSION = 2;
/**
 * The query parameter a client names its protocol version with when it opens the socket
 * (`/api/live?v=2`): a client of another version is closed with {@link CLOSE_OUTDATED_CLIENT}
 * before anything is said (a version-1 client could not even read a version-2 welcome).
 */
export const LIVE_PROTOCOL_QUERY = 'v';
const v = z.literal(LIVE_PROTOCOL_VERSION);
const topic = z.string().min(1).max(200);
/** A map stream revision, in decimal (JSON has no bigint). */
const Revision = z.string().regex(/^\d{1,20}$/);

/**
 * How far behind (in events) a subscriber may be and still be sent the events it misses; further
 * behind, it gets one snapshot. A one-field edit is a few hundred bytes, a 5,000-location
 * document about a megabyte: 1,000 events cost about what a snapshot of a big map costs, and
 * reading 1,000 events of one stream is one indexed range scan (a few ms). Catching up beyond
 * that would only be slower and bigger than starting again.
 */
export const MAX_CATCH_UP_EVENTS = 1_000;

/** What a client sends; no text in it may hold NUL or a lone surrogate (safe-text.ts). */
export const ClientMessage = withSafeText(z.discriminatedUnion('type', [
  /**
   * `since` (map topics): the last stream revision the client has applied. The server answers
   * the events after it, or a snapshot when it is too far behind; without it, a snapshot.
   */
  z.object({ v, type: z.literal('subscribe'), topic, since: Revision.optional() }),
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

/** One recorded event of a map's stream as `map:{id}` pushes it: what, where, who and when. */
export const LiveMapEvent = z.object({
  /** Its revision in the map's stream: a client applies revision r only on top of r - 1. */
  revision: Revision,
  /** Its global position ("commit:prepare"). */
  position: z.string(),
  /** When it was decided (the metadata's `at`). */
  at: z.string(),
  /** Who made it (uid and display name at the time); null for the product itself. */
  by: z.object({ uid: z.string(), name: z.string() }).nullable(),
  /** The event; null for one of the stream's events the editor has no use for (it still takes a revision). */
  event: MapEvent.nullable(),
});
export type LiveMapEvent = z.infer<typeof LiveMapEvent>;

/** A map as a `map:{id}` snapshot gives it: the document at `revision`, with the map's title and history. */
export const LiveMapSnapshot = z.object({
  id: z.string(),
  title: z.string(),
  document: MapDocument,
  revision: Revision,
  history: z.array(HistoryEntry),
});
export type LiveMapSnapshot = z.infer<typeof LiveMapSnapshot>;

/** The value of a topic, by its kind (events/topics.ts). */
export const TopicSnapshot = z.discriminatedUnion('kind', [
  /** `maps:{uid}`: the user's maps. */
  z.object({ kind: z.literal('maps'), maps: z.array(MapListItem) }),
  /** `billing:{uid}`: subscriptions, checkouts, slots. */
  z.object({ kind: z.literal('billing'), billing: BillingSnapshot }),
  /** `map:{id}`: the starting point events apply to. */
  z.object({ kind: z.literal('map'), map: LiveMapSnapshot }),
  /** `comments:{mapId}`: the map's comment threads. */
  z.object({ kind: z.literal('comments'), comments: MapComments }),
]);
export type TopicSnapshot = z.infer<typeof TopicSnapshot>;

export const ServerMessage = z.discriminatedUnion('type', [
  /** Sent once the socket is authenticated. */
  z.object({ v, type: z.literal('welcome'), uid: z.string() }),
  /**
   * A topic's whole value: on subscribe (for a map, when the client has nothing or is too far
   * behind) and, for the topics other than maps, after each change. `position` is the global
   * position of the last event the value certainly reflects ("c:p").
   */
  z.object({ v, type: z.literal('snapshot'), topic, position: z.string(), data: TopicSnapshot }),
  /** A map's recorded events, oldest first, consecutive revisions (`map:{id}` only). */
  z.object({ v, type: z.literal('events'), topic, events: z.array(LiveMapEvent) }),
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

/** Close code for a client of another protocol version: its page is older (or newer) than the server. */
export const CLOSE_OUTDATED_CLIENT = 4426;
export const OUTDATED_CLIENT_REASON = 'Mapfold was updated: reload the page';
