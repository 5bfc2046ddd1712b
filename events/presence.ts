/**
 * Presence in a map: who is in it now, where their pointer is, which location they have
 * selected and which one's form they have open. Ephemeral: it travels over `/api/live` (and
 * between server processes over PostgreSQL NOTIFY), never into the event store.
 *
 * The client sends its whole state (it is small) each time it changes, at most every
 * {@link PRESENCE_MIN_INTERVAL_MS}, and again every {@link PRESENCE_KEEPALIVE_MS} while nothing
 * changes; a peer the server has not heard from for {@link PRESENCE_EXPIRY_MS} has left (a
 * closed laptop, a lost network: the websocket's own ping every 30 s is far too slow for this).
 */
import { z } from 'zod';
import { ElementId } from './map-document.js';

/** At most about 20 updates a second per person: the client waits this long between two. */
export const PRESENCE_MIN_INTERVAL_MS = 50;
/** While nothing changes, the client says it is still there this often. */
export const PRESENCE_KEEPALIVE_MS = 2_000;
/** Silent this long (three keepalives missed): gone. */
export const PRESENCE_EXPIRY_MS = 6_500;
/** Maps one socket may be present in at once (a tab shows one editor). */
export const PRESENCE_MAPS_PER_SOCKET = 4;

/** Map ids as topics spell them (events/topics.ts). */
export const PresenceMapId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

/** Far beyond any drawing's size, small enough that a hostile number cannot upset a renderer. */
const coordinate = z.number().finite().min(-1e6).max(1e6);

/** A pointer on a floor (layer), in the layer's own coordinates: the same spot whatever the zoom. */
export const PresenceCursor = z.object({ layer: ElementId, x: coordinate, y: coordinate });
export type PresenceCursor = z.infer<typeof PresenceCursor>;

/** What one tab shows of itself. */
export const PresenceState = z.object({
  /** Over the map (null: the pointer is elsewhere, or on a phone with no pointer). */
  cursor: PresenceCursor.nullable(),
  /** The location selected on the map. */
  selection: ElementId.nullable(),
  /** The location whose form is open. */
  editing: ElementId.nullable(),
});
export type PresenceState = z.infer<typeof PresenceState>;

export const NO_PRESENCE: PresenceState = { cursor: null, selection: null, editing: null };

/**
 * One tab of one person in a map. `id` names the tab's presence (one per socket and map), so
 * the same person in two tabs is two peers with one `uid`; the name comes from the server's
 * principal, never from the client.
 */
export const PresencePeer = z.object({
  id: z.string().min(1).max(64),
  uid: z.string().min(1).max(200),
  name: z.string().max(200),
  state: PresenceState,
});
export type PresencePeer = z.infer<typeof PresencePeer>;

/** Client → server: be present in a map with this state (join or update), or leave it (null). */
export const presenceClientFields = { mapId: PresenceMapId, state: PresenceState.nullable() };

/**
 * Server → client. `full`: the whole set of the map's other peers (sent on join, and again
 * after access was re-checked); otherwise `peers` are new or changed and `left` have gone.
 * `self` (with `full`) is the receiving tab's own identity, so it can tell its own other tabs.
 */
export const presenceServerFields = {
  mapId: PresenceMapId,
  full: z.boolean(),
  self: PresencePeer.omit({ state: true }).optional(),
  peers: z.array(PresencePeer),
  left: z.array(z.string()),
};

export function samePresence(a: PresenceState, b: PresenceState): boolean {
  return (
    a.selection === b.selection &&
    a.editing === b.editing &&
    (a.cursor === b.cursor || (a.cursor !== null && b.cursor !== null && a.cursor.layer === b.cursor.layer && a.cursor.x === b.cursor.x && a.cursor.y === b.cursor.y))
  );
}
