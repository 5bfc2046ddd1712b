/**
 * The webhooks' reactor (issue 30 item 2): follows the event log from its checkpoint
 * (server/billing/reactor-runner.ts: one process at a time, a failing stream set aside, never
 * wedged) and turns the product's events into deliveries in the outbox
 * (webhook-deliveries.ts), one per webhook that wants the event: the map's own webhooks and
 * its owner's account-wide ones, created before the event. A delivery's `source` is unique, so
 * an event handed again after a restart adds nothing: at least once, never twice.
 *
 *   MapPublished                        map.published
 *   MapStateChanged, public to test     map.unpublished, with why: its owner (or an admin)
 *                                       unpublished it, its subscription or its licence ended
 *   an edit touching locations          map.changed, debounced: one per window per map, with the ids
 *   ImportApplied (its last part)       import.applied
 *   CommentAdded                        comment.created
 *   MapInvitationAccepted               member.joined
 *
 * `directions.requested` is no event (the viewer's beacons are counters): the insights route
 * hands its directions counters to webhook-directions.ts, which makes one delivery per map and 30 s.
 */
import { CommentAdded } from '../../events/map-comments.js';
import { MAP_EDIT_TYPES, type MapEdit } from '../../events/map-edits.js';
import { MapEdited, MapStateChanged } from '../../events/map.js';
import { usesTestSlot } from '../../events/map-states.js';
import { MapPublished } from '../../events/map-publishing.js';
import { MapInvitationAccepted } from '../../events/map-sharing.js';
import { comparePositions, formatPosition, parsePosition, type Position } from '../../events/position.js';
import { mapIdFromCommentsStream, mapIdFromStream } from '../../events/streams.js';
import type { WebhookEventType } from '../../events/webhooks.js';
import type { Queryable } from '../../ports/database.js';
import type { RecordedEvent } from '../../ports/event-store.js';
import { webhooksForMap } from '../../projections/webhooks.js';
import type { Reactor } from '../billing/reactor-runner.js';
import type { Clock, IdGenerator } from '../clock.js';
import { enqueueDelivery, noteMapChange } from './webhook-deliveries.js';

export const WEBHOOK_REACTOR = 'webhook-reactor';
/** map.changed: one delivery per map per this long at most, with every location changed in it. */
export const MAP_CHANGED_WINDOW_MS = 30_000;

export interface WebhookReactorDeps {
  db: Queryable;
  ids: IdGenerator;
  clock: Clock;
  /** The map's owner (null: no such map now, deleted); account-wide webhooks follow the owner's maps. */
  ownerOf(mapId: string): Promise<string | null>;
  /** Told when deliveries were added, so the worker looks now. */
  onEnqueued?: () => void;
  /** The map's state (MapState) right after the event at `revision` of its stream; without it no map.unpublished is sent. */
  stateAt?(mapId: string, revision: bigint): Promise<number>;
}

/** The ids of the locations an edit changed. */
export function locationIdsOf(edit: MapEdit): string[] {
  switch (edit.type) {
    case 'LocationAdded':
      return [edit.location.id];
    case 'LocationUpdated':
    case 'LocationMoved':
    case 'LocationRemoved':
      return [edit.id];
    case 'LocationsRemoved':
      return [...edit.ids];
    case 'LayerRemoved':
      return [...edit.removedLocations];
    case 'ImportApplied':
      return [...edit.locations.map((location) => location.id), ...edit.updates.map((update) => update.id)];
    case 'DocumentImported':
      return edit.document.locations.map((location) => location.id);
    default:
      return [];
  }
}

/**
 * Adds a delivery of `type` to every webhook of the map (and its owner's account) that wants
 * it and was created before `position` (null: now, for events that are not in the log).
 */
export async function enqueueForMap(
  deps: Pick<WebhookReactorDeps, 'db' | 'ids' | 'ownerOf'>,
  event: { mapId: string; type: WebhookEventType; id: string; created: string; data: Record<string, unknown>; position: Position | null; now: Date },
): Promise<number> {
  const owner = await deps.ownerOf(event.mapId);
  if (owner === null) return 0;
  let added = 0;
  for (const webhook of await webhooksForMap(deps.db, event.mapId, owner)) {
    if (!webhook.events.includes(event.type)) continue;
    if (event.position && comparePositions(parsePosition(webhook.position), event.position) >= 0) continue;
    const fresh = await enqueueDelivery(deps.db, {
      deliveryId: deps.ids.uuid(),
      webhookId: webhook.webhookId,
      body: { id: event.id, type: event.type, created: event.created, data: { mapId: event.mapId, ...event.data } },
      source: `${webhook.webhookId}:${event.id}`,
      now: event.now,
    });
    if (fresh) added++;
  }
  return added;
}

/** The webhook event an event of the log is, if any (map.changed aside: it is debounced). */
function webhookEventOf(recorded: RecordedEvent): { mapId: string; type: WebhookEventType; data: Record<string, unknown> } | null {
  const commentsMap = mapIdFromCommentsStream(recorded.stream);
  if (commentsMap !== null) {
    if (recorded.type !== 'CommentAdded') return null;
    const { data } = CommentAdded.parse({ type: recorded.type, data: recorded.data });
    return { mapId: data.mapId, type: 'comment.created', data: { commentId: data.commentId, threadId: data.threadId, body: data.body, author: data.author } };
  }
  const mapId = mapIdFromStream(recorded.stream);
  if (mapId === null) return null;
  switch (recorded.type) {
    case 'MapPublished': {
      const { data } = MapPublished.parse({ type: recorded.type, data: recorded.data });
      return { mapId, type: 'map.published', data: { revision: data.revision, rollback: data.rollback ?? false } };
    }
    case 'MapInvitationAccepted': {
      const { data } = MapInvitationAccepted.parse({ type: recorded.type, data: recorded.data });
      return { mapId, type: 'member.joined', data: { uid: data.uid, displayName: data.displayName, role: data.role } };
    }
    case 'ImportApplied': {
      const edit = MapEdited.parse({ type: recorded.type, data: recorded.data });
      if (edit.type !== 'ImportApplied' || (edit.data.part && edit.data.part.number !== edit.data.part.of)) return null;
      return { mapId, type: 'import.applied', data: { source: { format: edit.data.source.format, name: edit.data.source.name } } };
    }
    default:
      return null;
  }
}

/**
 * map.unpublished: a map that was public put back to a test map. Every way a map stops being
 * public ends there (its owner or an admin unpublishing it, its subscription's slots shrinking,
 * its licence's Basic usage ending), and nothing else does: a plan change or a map that stays
 * live on its licence after its slot went is no unpublishing. A deleted map has no one left to tell.
 */
async function unpublicationOf(deps: WebhookReactorDeps, recorded: RecordedEvent, mapId: string) {
  if (recorded.type !== 'MapStateChanged' || !deps.stateAt || recorded.revision === 0n) return null;
  const { data } = MapStateChanged.parse({ type: recorded.type, data: recorded.data });
  if (!usesTestSlot(data.state) || usesTestSlot(await deps.stateAt(mapId, recorded.revision - 1n))) return null;
  const { userId, correlationId } = recorded.metadata;
  const reason = correlationId.startsWith('licence-expiry:') ? 'licence' : userId !== null ? 'unpublished' : 'subscription';
  return { mapId, type: 'map.unpublished' as const, data: { reason } };
}

export function webhookReactor(deps: WebhookReactorDeps): Reactor {
  return {
    name: WEBHOOK_REACTOR,
    streamPrefixes: ['map-'],
    async handle(recorded) {
      const now = deps.clock.now();
      const created = recorded.recordedAt.toISOString();
      const id = `evt_${recorded.id}`;
      const mapId = mapIdFromStream(recorded.stream);
      const found = webhookEventOf(recorded) ?? (mapId !== null ? await unpublicationOf(deps, recorded, mapId) : null);
      let added = 0;
      if (found) added += await enqueueForMap(deps, { ...found, id, created, position: recorded.position, now });
      if (mapId !== null && MAP_EDIT_TYPES.has(recorded.type)) {
        const edit = MapEdited.parse({ type: recorded.type, data: recorded.data });
        const { mapId: _mapId, edited: _edited, ...fields } = edit.data;
        const locationIds = locationIdsOf({ type: edit.type, ...fields } as MapEdit);
        if (locationIds.length > 0) {
          await noteMapChange(deps.db, { mapId, eventId: id, position: formatPosition(recorded.position), at: now, locationIds, windowMs: MAP_CHANGED_WINDOW_MS });
        }
      }
      if (added > 0) deps.onEnqueued?.();
    },
  };
}
