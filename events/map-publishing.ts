/**
 * Drafts, review and scheduled publishing (issue 27, item 3), on the map's own stream: which
 * revision of the map the public sees. A map publishes its edits at once (`live`: the public
 * page follows every edit, as every map did before this) or when someone publishes them
 * (`manual`: the public page shows the published revision until the next publish, which may be
 * an earlier revision, a rollback, or one scheduled for later).
 *
 * Maps recorded before this have no mode event and stay live; new maps start manual (the map
 * decider records that at creation). Editors propose by editing as before; publishing, its
 * schedule and the mode are `manage` (the owner and admins): sharing has no role between
 * editor and owner today, so "a role the owner allows" is the owner alone.
 */
import { z } from 'zod';
import { DomainError } from './errors.js';
import { requireCan, type MapAccessFacts } from './map-access.js';
import type { Principal } from './principal.js';

const at = z.iso.datetime({ offset: true });
const revision = z.string().regex(/^\d+$/);

export const PublishMode = z.enum(['live', 'manual']);
export type PublishMode = z.infer<typeof PublishMode>;

// ---- events -------------------------------------------------------------------------------

export const MapPublishModeSet = z.object({
  type: z.literal('MapPublishModeSet'),
  data: z.object({ mapId: z.string(), mode: PublishMode, at, by: z.string() }),
});

/** The public now sees the map as of `revision` (decimal, like a history entry's); `rollback`: an earlier one than the current document. */
export const MapPublished = z.object({
  type: z.literal('MapPublished'),
  data: z.object({ mapId: z.string(), revision, at, by: z.string(), rollback: z.boolean().optional() }),
});

/** `revision` is published at `publishAt` (by the scheduler, in `by`'s name); a later schedule replaces it. */
export const MapPublishScheduled = z.object({
  type: z.literal('MapPublishScheduled'),
  data: z.object({ mapId: z.string(), revision, publishAt: at, by: z.string() }),
});

export const MapPublishScheduleCancelled = z.object({
  type: z.literal('MapPublishScheduleCancelled'),
  data: z.object({ mapId: z.string(), by: z.string() }),
});

export const MapPublishingEvent = z.union([MapPublishModeSet, MapPublished, MapPublishScheduled, MapPublishScheduleCancelled]);
export type MapPublishingEvent = z.infer<typeof MapPublishingEvent>;
export const PUBLISHING_EVENT_TYPES: ReadonlySet<string> = new Set(['MapPublishModeSet', 'MapPublished', 'MapPublishScheduled', 'MapPublishScheduleCancelled']);

export function isPublishingEvent(event: { type: string }): event is MapPublishingEvent {
  return PUBLISHING_EVENT_TYPES.has(event.type);
}

// ---- state --------------------------------------------------------------------------------

export interface PublishingState {
  mode: PublishMode;
  /** The revision the public sees on a manual map; null: never published (not public yet). */
  publishedRevision: number | null;
  publishedAt: string | null;
  publishedBy: string | null;
  scheduled: { revision: number; publishAt: string; by: string } | null;
}

/** A map with no publishing event: every edit public at once, as before publishing existed. */
export const LIVE_PUBLISHING: PublishingState = { mode: 'live', publishedRevision: null, publishedAt: null, publishedBy: null, scheduled: null };

export function evolvePublishing(state: PublishingState, event: MapPublishingEvent): PublishingState {
  switch (event.type) {
    case 'MapPublishModeSet':
      return { ...state, mode: event.data.mode, ...(event.data.mode === 'live' ? { scheduled: null } : {}) };
    case 'MapPublished':
      // Whatever was scheduled is replaced by what was just published (a publish now, or the schedule itself).
      return { ...state, publishedRevision: Number(event.data.revision), publishedAt: event.data.at, publishedBy: event.data.by, scheduled: null };
    case 'MapPublishScheduled':
      return { ...state, scheduled: { revision: Number(event.data.revision), publishAt: event.data.publishAt, by: event.data.by } };
    case 'MapPublishScheduleCancelled':
      return { ...state, scheduled: null };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/**
 * The revision the public sees: the current one on a live map, the published one on a manual
 * map, null for a manual map never published.
 */
export function publicRevision(publishing: PublishingState, current: number): number | null {
  return publishing.mode === 'live' ? current : publishing.publishedRevision;
}

// ---- commands -----------------------------------------------------------------------------

export type MapPublishingCommand =
  | { type: 'SetMapPublishMode'; data: { mapId: string; mode: PublishMode } }
  /** `revision`: the current one when omitted, an earlier one rolls back. `at`: later than now schedules. */
  | { type: 'PublishMapChanges'; data: { mapId: string; revision?: number | undefined; at?: string | undefined } }
  | { type: 'CancelScheduledPublish'; data: { mapId: string } }
  /** The scheduler's: publishes the scheduled revision if its time has come, else nothing. */
  | { type: 'RunScheduledPublish'; data: { mapId: string } };

export const PUBLISHING_COMMAND_TYPES: ReadonlySet<string> = new Set(['SetMapPublishMode', 'PublishMapChanges', 'CancelScheduledPublish', 'RunScheduledPublish']);

export function isPublishingCommand(command: { type: string }): command is MapPublishingCommand {
  return PUBLISHING_COMMAND_TYPES.has(command.type);
}

/** The part of an active map the publishing decisions read. */
export interface PublishableMap {
  mapId: string;
  /** The stream's revision now. */
  revision: number;
  /** The revision of the last change of the document. */
  lastChangeRevision: number;
  publishing: PublishingState;
  facts: MapAccessFacts;
}

export function decidePublishing(command: MapPublishingCommand, map: PublishableMap, principal: Principal, now: Date): MapPublishingEvent[] {
  const time = now.toISOString();
  const { mapId, publishing } = map;
  switch (command.type) {
    case 'SetMapPublishMode': {
      requireCan(principal, map.facts, 'manage');
      const mode = command.data.mode;
      if (mode === publishing.mode) return [];
      const set: MapPublishingEvent = { type: 'MapPublishModeSet', data: { mapId, mode, at: time, by: principal.uid } };
      if (mode === 'live') {
        // Every edit public from now on: a schedule has nothing left to publish.
        return publishing.scheduled ? [{ type: 'MapPublishScheduleCancelled', data: { mapId, by: principal.uid } }, set] : [set];
      }
      // From live to manual the public keeps what it sees now: the current revision is the published one.
      return [set, { type: 'MapPublished', data: { mapId, revision: String(map.revision), at: time, by: principal.uid } }];
    }
    case 'PublishMapChanges': {
      requireCan(principal, map.facts, 'manage');
      if (publishing.mode === 'live') {
        throw new DomainError('invalid-argument', 'This map publishes every edit at once: set “Publish edits” to “When we publish” first.');
      }
      const target = command.data.revision ?? map.revision;
      if (!Number.isSafeInteger(target) || target < 0 || target > map.revision) {
        throw new DomainError('invalid-argument', `revision: This map has no revision ${target} (it is at ${map.revision}).`);
      }
      const when = command.data.at === undefined ? null : Date.parse(command.data.at);
      if (when !== null && Number.isNaN(when)) throw new DomainError('invalid-argument', 'at: Give a date and time.');
      if (when !== null && when > now.getTime()) {
        return [{ type: 'MapPublishScheduled', data: { mapId, revision: String(target), publishAt: new Date(when).toISOString(), by: principal.uid } }];
      }
      if (target === publishing.publishedRevision) return [];
      return [published(mapId, target, map, time, principal.uid)];
    }
    case 'CancelScheduledPublish': {
      requireCan(principal, map.facts, 'manage');
      if (!publishing.scheduled) return [];
      return [{ type: 'MapPublishScheduleCancelled', data: { mapId, by: principal.uid } }];
    }
    case 'RunScheduledPublish': {
      // The product's own scheduler (an admin principal); who scheduled it is named in the event.
      if (!principal.admin) throw new DomainError('permission-denied', 'Only the scheduler may do this.');
      const scheduled = publishing.scheduled;
      if (!scheduled || publishing.mode !== 'manual' || Date.parse(scheduled.publishAt) > now.getTime()) return [];
      return [published(mapId, scheduled.revision, map, time, scheduled.by)];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

function published(mapId: string, revision: number, map: PublishableMap, time: string, by: string): MapPublishingEvent {
  // Earlier than the current document: the public goes back to it.
  const rollback = revision < map.lastChangeRevision;
  return { type: 'MapPublished', data: { mapId, revision: String(revision), at: time, by, ...(rollback ? { rollback } : {}) } };
}
