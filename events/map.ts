/**
 * The map aggregate (stream `map-{id}`): its commands, events, state, `evolve` and `decide`.
 * Pure: time, ids and the caller's slot usage come in through the context.
 */
import { z } from 'zod';
import type { Decider } from './decider.js';
import { DomainError } from './errors.js';
import { requireCan, type MapAccessFacts, type MapAction } from './map-access.js';
import { MapDocument, recordedDocumentProblem } from './map-document.js';
import { applyEdit, checkEdit, MAP_EDIT_TYPES, MapEdit, type MapEditType } from './map-edits.js';
import { FREE_TEST_SLOTS, MapState, usesTestSlot } from './map-states.js';
import { parseMapTitle } from './map-title.js';
import { isEmptyPathsEdit, withoutUnknownRemovals } from './path-network.js';
import {
  decideSharing,
  emptySharing,
  evolveSharing,
  isSharingCommand,
  isSharingEvent,
  MapSharingEvent,
  SHARING_EVENT_TYPES,
  sharingFacts,
  type MapSharingCommand,
  type SharingState,
} from './map-sharing.js';
import {
  decidePublishing,
  evolvePublishing,
  isPublishingCommand,
  isPublishingEvent,
  LIVE_PUBLISHING,
  MapPublishingEvent,
  PublishMode,
  PUBLISHING_EVENT_TYPES,
  type MapPublishingCommand,
  type PublishingState,
} from './map-publishing.js';
import type { Principal } from './principal.js';
import { streams } from './streams.js';
import {
  appliedEntry,
  dataSourceName,
  isSyncDue,
  LISTED_SYNC_FIELDS,
  MapDataSourceOverridesFound,
  MapDataSourceOverridesResolved,
  MapDataSourceSet,
  MapDataSourceSyncFailed,
  MapDataSourceSyncStarted,
  valueHash,
  type DataSourceState,
  type MapDataSourceCommand,
} from './map-data-source.js';

// ---- events -------------------------------------------------------------------------------

export const MapCreated = z.object({
  type: z.literal('MapCreated'),
  data: z.object({
    mapId: z.string(),
    uid: z.string(),
    author: z.string(),
    title: z.string(),
    state: z.number().int(),
    document: MapDocument,
    created: z.iso.datetime({ offset: true }),
    /**
     * How the map publishes its edits from the start (events/map-publishing.ts): new maps are
     * `manual`. Absent on maps created before publishing existed, and on the product's own
     * examples, which are live.
     */
    publishMode: PublishMode.optional(),
  }),
});

export const MapSaved = z.object({
  type: z.literal('MapSaved'),
  data: z.object({
    mapId: z.string(),
    title: z.string().optional(),
    document: MapDocument.optional(),
    edited: z.iso.datetime({ offset: true }),
  }),
});

export const MapDeleted = z.object({
  type: z.literal('MapDeleted'),
  data: z.object({
    mapId: z.string(),
    deletedAt: z.iso.datetime({ offset: true }),
  }),
});

/** A history entry's name (spec §3): optional, trimmed, short enough for a list. */
export const HISTORY_NAME_MAX = 100;
export const HistoryName = z
  .string({ error: 'Name must be text.' })
  .trim()
  .min(1, 'Name is required.')
  .max(HISTORY_NAME_MAX, `Name must be at most ${HISTORY_NAME_MAX} characters.`);

/**
 * A history entry (spec §3): a named point in the map's stream. `revision` is the stream
 * revision whose document it names (decimal). Made by an editor ("Save version"), or by the
 * product on its own (`auto`): at the start of a stretch of editing at most every 30 minutes,
 * and before every restore.
 */
export const VersionSaved = z.object({
  type: z.literal('VersionSaved'),
  data: z.object({
    mapId: z.string(),
    historyId: z.string(),
    name: z.string().optional(),
    revision: z.string().regex(/^\d+$/),
    created: z.iso.datetime({ offset: true }),
    author: z.string(),
    auto: z.boolean(),
  }),
});

export const VersionRenamed = z.object({
  type: z.literal('VersionRenamed'),
  data: z.object({ mapId: z.string(), historyId: z.string(), name: z.string() }),
});

export const VersionDeleted = z.object({
  type: z.literal('VersionDeleted'),
  data: z.object({ mapId: z.string(), historyId: z.string() }),
});

/**
 * The map's state (spec §4: 0 test, 1 live, 2 demo, 3 pro, 9 adm) and its subscribed flag
 * changed: an admin's batch update (spec §6) records it; publishing will too.
 */
export const MapStateChanged = z.object({
  type: z.literal('MapStateChanged'),
  data: z.object({ mapId: z.string(), state: z.number().int(), subscribed: z.boolean(), changed: z.iso.datetime({ offset: true }) }),
});

export type HistoryEvent = z.infer<typeof VersionSaved> | z.infer<typeof VersionRenamed> | z.infer<typeof VersionDeleted>;
export const HISTORY_EVENT_TYPES: ReadonlySet<string> = new Set(['VersionSaved', 'VersionRenamed', 'VersionDeleted']);

export function isHistoryEvent(event: MapEvent): event is HistoryEvent {
  return HISTORY_EVENT_TYPES.has(event.type);
}

const EDIT_TYPES = MapEdit.options.map((option) => option.shape.type.value) as [MapEditType, ...MapEditType[]];

/**
 * An edit of the document, recorded under the edit's own name (`LocationAdded`, ...) with the
 * edit's fields beside `mapId` and `edited`: the log reads as what happened, field by field.
 */
export const MapEdited = z
  .object({ type: z.enum(EDIT_TYPES), data: z.looseObject({ mapId: z.string(), edited: z.iso.datetime({ offset: true }) }) })
  .transform(({ type, data }, context) => {
    const { mapId, edited, ...fields } = data;
    const edit = MapEdit.safeParse({ type, ...fields });
    if (!edit.success) {
      for (const issue of edit.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: ['data', ...issue.path] });
      return z.NEVER;
    }
    const { type: _type, ...editFields } = edit.data;
    return { type: edit.data.type, data: { ...editFields, mapId, edited } } as MapEditedEvent;
  });

/** The stored shape of an edit event: the edit's type, its fields plus mapId and edited. */
export type MapEditedEvent = {
  [T in MapEditType]: { type: T; data: Omit<Extract<MapEdit, { type: T }>, 'type'> & { mapId: string; edited: string } };
}[MapEditType];

export function isEditEvent(event: MapEvent): event is MapEditedEvent {
  return MAP_EDIT_TYPES.has(event.type);
}

/** The edit an edit event records. */
export function editOf(event: MapEditedEvent): MapEdit {
  const { mapId: _mapId, edited: _edited, ...fields } = event.data;
  return { type: event.type, ...fields } as MapEdit;
}

function editEvent(edit: MapEdit, mapId: string, edited: string): MapEditedEvent {
  const { type, ...fields } = edit;
  return { type, data: { ...fields, mapId, edited } } as MapEditedEvent;
}

/**
 * Members, invitations and the view link (events/map-sharing.ts), and which revision is
 * published (events/map-publishing.ts), are on the map's stream too.
 */
export const MapEvent = z.union([MapCreated, MapSaved, MapDeleted, MapStateChanged, VersionSaved, VersionRenamed, VersionDeleted, MapSharingEvent, MapPublishingEvent, MapDataSourceSet, MapDataSourceSyncStarted, MapDataSourceSyncFailed, MapDataSourceOverridesFound, MapDataSourceOverridesResolved, MapEdited]);
export type MapEvent =
  | z.infer<typeof MapCreated>
  | z.infer<typeof MapSaved>
  | z.infer<typeof MapDeleted>
  | z.infer<typeof MapStateChanged>
  | HistoryEvent
  | MapSharingEvent
  | MapPublishingEvent
  | MapDataSourceSet
  | MapDataSourceSyncStarted
  | MapDataSourceSyncFailed
  | MapDataSourceOverridesFound
  | MapDataSourceOverridesResolved
  | MapEditedEvent;
export const MAP_EVENT_TYPES: ReadonlySet<string> = new Set([
  'MapCreated', 'MapSaved', 'MapDeleted', 'MapStateChanged', ...HISTORY_EVENT_TYPES, ...SHARING_EVENT_TYPES, ...PUBLISHING_EVENT_TYPES, 'MapDataSourceSet', 'MapDataSourceSyncStarted', 'MapDataSourceSyncFailed', 'MapDataSourceOverridesFound', 'MapDataSourceOverridesResolved', ...EDIT_TYPES,
]);
export { isPublishingEvent, isSharingEvent };

// ---- commands -----------------------------------------------------------------------------

export type MapCommand =
  | { type: 'CreateMap'; data: { mapId: string; title: string; document: MapDocument } }
  /**
   * The title, the whole document, or both. `expectedRevision` is the revision the caller's
   * document was read at: required with a document, checked against the map's whenever given.
   */
  | { type: 'SaveMap'; data: { mapId: string; title?: string | undefined; document?: MapDocument | undefined; expectedRevision?: bigint | undefined } }
  | { type: 'DeleteMap'; data: { mapId: string } }
  /** Edits of the document, applied in order; all or none. */
  | { type: 'EditMap'; data: { mapId: string; edits: MapEdit[] } }
  /** "Save version": a history entry at the map's current revision. */
  | { type: 'SaveVersion'; data: { mapId: string; historyId: string; name?: string | undefined } }
  | { type: 'RenameVersion'; data: { mapId: string; historyId: string; name: string } }
  | { type: 'DeleteVersion'; data: { mapId: string; historyId: string } }
  /**
   * Back to an entry's document. The server reads that document from the stream first and
   * passes it in (`document`), with the id for the entry made just before the restore.
   */
  | { type: 'RestoreVersion'; data: { mapId: string; historyId: string; document: MapDocument; autoHistoryId: string } }
  /** An admin updates a map and its data in one batch (spec §6); `expectedRevision` as for SaveMap. */
  | {
      type: 'AdminUpdateMap';
      data: {
        mapId: string;
        title?: string | undefined;
        document?: MapDocument | undefined;
        state?: number | undefined;
        subscribed?: boolean | undefined;
        expectedRevision?: bigint | undefined;
      };
    }
  /** Invitations, members and the view link (events/map-sharing.ts). */
  | MapSharingCommand
  /** Which revision the public sees (events/map-publishing.ts). */
  | MapPublishingCommand
  /** Live data from a sheet or URL (events/map-data-source.ts). */
  | MapDataSourceCommand;

export interface MapContext {
  principal: Principal | null;
  now: Date;
  /** Ids for history entries the product makes on its own (before a stretch of edits). */
  newHistoryId?: () => string;
  /** How many of the principal's maps are in a state below 1 (spec §5), from the read model. */
  testMapsInUse: number;
}

// ---- state --------------------------------------------------------------------------------

export type MapAggregate =
  | { status: 'absent' }
  | {
      status: 'active';
      mapId: string;
      uid: string;
      author: string;
      title: string;
      state: number;
      subscribed: boolean;
      document: MapDocument;
      created: string;
      edited: string;
      /** The stream's revision: the number of events folded, less one. */
      revision: number;
      history: HistoryItem[];
      /** When the last history entry was made (the product makes one per stretch of editing). */
      lastVersionAt: string | null;
      /** The revision of the last document change (edit, import, restore, save with a document). */
      lastChangeRevision: number;
      /** Members, invitations and the view link. */
      sharing: SharingState;
      /**
       * The last import's column mapping (a table's), offered again for the map's next import of
       * a file with the same columns. Optional: states kept before imports existed have none.
       */
      lastImport?: { format: string; mapping: Record<string, string> } | null;
      /**
       * Which revision the public sees (events/map-publishing.ts). Optional: states kept before
       * publishing existed have none, and such maps are live ({@link publishingOf}).
       */
      publishing?: PublishingState;
      /** The map's data source and what its syncs brought (events/map-data-source.ts); absent: none. */
      dataSource?: DataSourceState | null;
    }
  | { status: 'deleted'; mapId: string; uid: string };

export interface HistoryItem {
  id: string;
  name?: string;
  revision: number;
  created: string;
  author: string;
}

/** The product makes a history entry on its own at most this often while a map is edited. */
export const AUTO_VERSION_EVERY_MS = 30 * 60 * 1000;

export const initialMapState: MapAggregate = { status: 'absent' };

export function evolveMap(state: MapAggregate, event: MapEvent): MapAggregate {
  switch (event.type) {
    case 'MapCreated': {
      const { mapId, uid, author, title, state: mapState, document, created, publishMode } = event.data;
      return {
        status: 'active', mapId, uid, author, title, state: mapState, subscribed: false, document, created, edited: created,
        revision: 0, history: [], lastVersionAt: null, lastChangeRevision: 0, sharing: emptySharing(),
        ...(publishMode ? { publishing: { ...LIVE_PUBLISHING, mode: publishMode } } : {}),
      };
    }
    case 'MapSaved':
      if (state.status !== 'active') return state;
      return {
        ...state,
        title: event.data.title ?? state.title,
        document: event.data.document ?? state.document,
        edited: event.data.edited,
        revision: state.revision + 1,
        lastChangeRevision: event.data.document ? state.revision + 1 : state.lastChangeRevision,
      };
    case 'MapDeleted':
      if (state.status !== 'active') return state;
      return { status: 'deleted', mapId: state.mapId, uid: state.uid };
    case 'MapStateChanged':
      if (state.status !== 'active') return state;
      return { ...state, state: event.data.state, subscribed: event.data.subscribed, revision: state.revision + 1 };
    case 'VersionSaved': {
      if (state.status !== 'active') return state;
      const { historyId, name, revision, created, author } = event.data;
      const item: HistoryItem = { id: historyId, revision: Number(revision), created, author, ...(name !== undefined ? { name } : {}) };
      return { ...state, revision: state.revision + 1, history: [...state.history, item], lastVersionAt: created };
    }
    case 'VersionRenamed':
      if (state.status !== 'active') return state;
      return {
        ...state,
        revision: state.revision + 1,
        history: state.history.map((item) => (item.id === event.data.historyId ? { ...item, name: event.data.name } : item)),
      };
    case 'VersionDeleted':
      if (state.status !== 'active') return state;
      return { ...state, revision: state.revision + 1, history: state.history.filter((item) => item.id !== event.data.historyId) };
    case 'MapDataSourceSet': {
      if (state.status !== 'active') return state;
      const { source } = event.data;
      // Another address starts afresh: its keys are not the old source's.
      const kept = source && state.dataSource && state.dataSource.source.url === source.url ? state.dataSource : null;
      return { ...state, revision: state.revision + 1, dataSource: source ? { ...kept, source, keys: kept?.keys ?? [], lastSyncAt: kept?.lastSyncAt ?? null } : null };
    }
    case 'MapDataSourceSyncStarted':
      if (state.status !== 'active') return state;
      return { ...state, revision: state.revision + 1, dataSource: state.dataSource ? { ...state.dataSource, lastAttemptAt: event.data.at } : null };
    case 'MapDataSourceSyncFailed':
      if (state.status !== 'active') return state;
      return { ...state, revision: state.revision + 1, dataSource: state.dataSource ? { ...state.dataSource, lastError: event.data.error } : null };
    case 'MapDataSourceOverridesFound':
      if (state.status !== 'active') return state;
      return { ...state, revision: state.revision + 1, dataSource: state.dataSource ? { ...state.dataSource, overrides: event.data.overrides, moreOverrides: event.data.more } : null };
    case 'MapDataSourceOverridesResolved':
      if (state.status !== 'active') return state;
      return { ...state, revision: state.revision + 1, dataSource: state.dataSource ? resolvedOverrides(state.dataSource, event.data.choices) : null };
    default: {
      if (state.status !== 'active') return state;
      if (isSharingEvent(event)) return { ...state, sharing: evolveSharing(state.sharing, event), revision: state.revision + 1 };
      if (isPublishingEvent(event)) return { ...state, publishing: evolvePublishing(publishingOf(state), event), revision: state.revision + 1 };
      const document = applyEdit(state.document, editOf(event));
      return {
        ...state,
        ...(event.type === 'ImportApplied' && event.data.source.mapping ? { lastImport: { format: event.data.source.format, mapping: event.data.source.mapping } } : {}),
        ...(event.type === 'ImportApplied' && event.data.source.sync && !event.data.source.overrides && state.dataSource ? { dataSource: syncedKeys(state.dataSource, event.data, event.data.edited, document) } : {}),
        document,
        edited: event.data.edited,
        revision: state.revision + 1,
        lastChangeRevision: state.revision + 1,
      };
    }
  }
}

// ---- decide -------------------------------------------------------------------------------

function requireUser(context: MapContext): Principal {
  if (!context.principal) throw new DomainError('unauthenticated', 'Unauthenticated');
  return context.principal;
}

/** A map's publishing state; a map with none (recorded before publishing existed) is live. */
export function publishingOf(state: Extract<MapAggregate, { status: 'active' }>): PublishingState {
  return state.publishing ?? LIVE_PUBLISHING;
}

/**
 * The keys a sync leaves the data source with (those it added or changed, less those it
 * removed), and what it applied of each: an added location's every field, an update's fields
 * (a location's first update, every field: the others agreed with the source).
 */
function syncedKeys(
  dataSource: DataSourceState,
  edit: { source?: { format: DataSourceState['format'] & string }; locations: ReadonlyArray<{ id: string }>; updates: ReadonlyArray<{ id: string; changes: object }>; removed?: readonly string[] | undefined },
  at: string,
  after: MapDocument,
): DataSourceState {
  const keys = new Set(dataSource.keys);
  const applied = { ...dataSource.applied };
  const byId = new Map(after.locations.map((location) => [location.id, location as unknown as Record<string, unknown>]));
  for (const location of edit.locations) {
    keys.add(location.id);
    const now = byId.get(location.id);
    if (now) applied[location.id] = appliedEntry(now, undefined);
  }
  for (const update of edit.updates) {
    keys.add(update.id);
    const now = byId.get(update.id);
    if (now) applied[update.id] = appliedEntry(now, applied[update.id], applied[update.id] ? Object.keys(update.changes) : undefined);
  }
  let kept = dataSource.kept;
  for (const id of edit.removed ?? []) {
    keys.delete(id);
    delete applied[id];
    if (kept?.[id]) {
      kept = { ...kept };
      delete kept[id];
    }
  }
  return { ...dataSource, keys: [...keys], lastSyncAt: at, applied, ...(kept ? { kept } : {}), ...(edit.source ? { format: edit.source.format } : {}) };
}

/**
 * The owner's choices: `keep` marks the field kept; `source` unmarks it, takes it off the list
 * and records the source's value as applied (its import of the source, in the same append, sets it).
 */
function resolvedOverrides(dataSource: DataSourceState, choices: ReadonlyArray<{ id: string; field: string; choice: 'keep' | 'source' }>): DataSourceState {
  const kept: Record<string, string[]> = { ...dataSource.kept };
  const applied = { ...dataSource.applied };
  let overrides = dataSource.overrides ?? [];
  for (const { id, field, choice } of choices) {
    const fields = kept[id] ?? [];
    if (choice === 'keep') {
      if (!fields.includes(field)) kept[id] = [...fields, field];
      continue;
    }
    if (fields.includes(field)) {
      const rest = fields.filter((f) => f !== field);
      if (rest.length > 0) kept[id] = rest;
      else delete kept[id];
    }
    const found = overrides.find((override) => override.id === id);
    if (!found) continue;
    const source = found.source as Record<string, unknown>;
    const taken = field === 'position' && 'precision' in source ? ['position', 'precision'] : [field];
    const entry = { ...applied[id] };
    for (const name of taken) entry[name] = valueHash(source[name]);
    applied[id] = entry;
    const left = Object.fromEntries(Object.entries(source).filter(([name]) => !taken.includes(name)));
    overrides = overrides.flatMap((override) => (override.id !== id ? [override] : Object.keys(left).some((name) => LISTED_SYNC_FIELDS.includes(name as never)) ? [{ id, source: left }] : []));
  }
  return { ...dataSource, kept, applied, overrides };
}

/** What the access policy (events/map-access.ts) knows of a map: its owner and members. */
export function factsOf(state: Extract<MapAggregate, { status: 'active' }>): MapAccessFacts {
  return sharingFacts(state.uid, state.sharing);
}

/**
 * The existing map a command acts on, if the principal may do `action` with it (map-access.ts):
 * editors and the owner edit content, floors and history; `manage` is the owner's (and admins').
 */
function requireMapFor(state: MapAggregate, principal: Principal, action: MapAction) {
  if (state.status !== 'active') throw new DomainError('not-found', 'Map not found.');
  requireCan(principal, factsOf(state), action);
  return state;
}

/**
 * A whole document replaces the map's, so it is taken only from a copy of the map as it is
 * now: saved over a newer map, it would erase every change made since (by anyone: another
 * tab, a collaborator's edits) without a word. The check is part of the decision, so the
 * command handler's retry after a concurrent append decides again on the newer map and
 * refuses; a stale save can never become a successful one.
 */
function requireCurrentRevision(map: Extract<MapAggregate, { status: 'active' }>, expected: bigint | undefined, document: MapDocument | undefined): void {
  if (expected === undefined) {
    if (document !== undefined) throw new DomainError('invalid-argument', 'revision: Give the revision the map data was loaded at, to save it whole.');
    return;
  }
  const current = BigInt(map.revision);
  if (expected > current) throw new DomainError('invalid-argument', `revision: This map has no revision ${expected} (it is at ${current}).`);
  if (expected < current) {
    throw new DomainError('aborted', `This map changed since you loaded it (revision ${expected}; it is now at ${current}). Load it again and reapply your changes.`);
  }
}

function requireHistoryItem(map: Extract<MapAggregate, { status: 'active' }>, historyId: string): HistoryItem {
  const item = map.history.find((candidate) => candidate.id === historyId);
  if (!item) throw new DomainError('not-found', 'Version not found.');
  return item;
}

function versionSaved(
  map: Extract<MapAggregate, { status: 'active' }>,
  historyId: string,
  principal: Principal,
  at: string,
  options: { auto: boolean; name?: string | undefined },
): MapEvent {
  return {
    type: 'VersionSaved',
    data: {
      mapId: map.mapId,
      historyId,
      revision: String(map.revision),
      created: at,
      author: principal.uid,
      auto: options.auto,
      ...(options.name !== undefined ? { name: options.name } : {}),
    },
  };
}

/** An unnamed entry in words: its time, in UTC (the decider has no time zone). */
function formatEntryTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function hasFreeTestSlot(principal: Principal, testMapsInUse: number): boolean {
  return principal.admin || testMapsInUse < FREE_TEST_SLOTS;
}

export function decideMap(command: MapCommand, state: MapAggregate, context: MapContext): MapEvent[] {
  const principal = requireUser(context);
  const at = context.now.toISOString();
  switch (command.type) {
    case 'CreateMap': {
      if (state.status !== 'absent') throw new DomainError('aborted', 'A map with this id already exists.');
      if (!hasFreeTestSlot(principal, context.testMapsInUse)) {
        throw new DomainError(
          'resource-exhausted',
          `No free test slot: you already have ${FREE_TEST_SLOTS} test maps. Subscribe or delete a test map first.`,
        );
      }
      return [
        {
          type: 'MapCreated',
          data: {
            mapId: command.data.mapId,
            uid: principal.uid,
            author: principal.uid,
            title: parseMapTitle(command.data.title),
            state: MapState.test,
            document: command.data.document,
            created: at,
            // New maps keep their edits as a draft until someone publishes them (issue 27).
            publishMode: 'manual',
          },
        },
      ];
    }
    case 'SaveMap': {
      const map = requireMapFor(state, principal, 'edit');
      const { title, document, expectedRevision } = command.data;
      requireCurrentRevision(map, expectedRevision, document);
      if (title === undefined && document === undefined) return [];
      return [
        {
          type: 'MapSaved',
          data: {
            mapId: command.data.mapId,
            ...(title !== undefined ? { title: parseMapTitle(title) } : {}),
            ...(document !== undefined ? { document } : {}),
            edited: at,
          },
        },
      ];
    }
    case 'DeleteMap': {
      requireMapFor(state, principal, 'manage');
      return [{ type: 'MapDeleted', data: { mapId: command.data.mapId, deletedAt: at } }];
    }
    case 'EditMap': {
      // The owner and editors edit; an admin may too (spec §6).
      const map = requireMapFor(state, principal, 'edit');
      let document = map.document;
      // The start of a stretch of editing: the product keeps the map as it was, at most every
      // 30 minutes, so yesterday's version is always there to go back to.
      const lastAt = map.lastVersionAt ? Date.parse(map.lastVersionAt) : Number.NEGATIVE_INFINITY;
      const checkpoint: MapEvent[] =
        context.newHistoryId && context.now.getTime() - lastAt >= AUTO_VERSION_EVERY_MS && !map.history.some((item) => item.revision >= map.lastChangeRevision)
          ? [versionSaved(map, context.newHistoryId(), principal, at, { auto: true })]
          : [];
      const edits = command.data.edits.flatMap((proposed, index) => {
        const edit: MapEdit =
          proposed.type === 'LayerRemoved'
            ? { ...proposed, removedLocations: document.locations.filter((l) => l.layer === proposed.id).map((l) => l.id) }
            : proposed.type === 'PathsEdited'
              ? withoutUnknownRemovals(document.paths, proposed)
              : proposed;
        // Removing path records a peer removed first changes nothing, and is not recorded.
        if (edit.type === 'PathsEdited' && isEmptyPathsEdit(edit)) return [];
        const problem = checkEdit(document, edit);
        if (problem) throw new DomainError('invalid-argument', `edits.${index}.${problem}`);
        document = applyEdit(document, edit);
        return [editEvent(edit, command.data.mapId, at)];
      });
      return edits.length === 0 ? [] : [...checkpoint, ...edits];
    }
    case 'AdminUpdateMap': {
      if (!principal.admin) throw new DomainError('permission-denied', 'Only an admin may do this.');
      if (state.status !== 'active') throw new DomainError('not-found', 'Map not found.');
      const { title, document, state: mapState, subscribed, expectedRevision } = command.data;
      requireCurrentRevision(state, expectedRevision, document);
      const events: MapEvent[] = [];
      if (title !== undefined || document !== undefined) {
        events.push({
          type: 'MapSaved',
          data: { mapId: state.mapId, ...(title !== undefined ? { title: parseMapTitle(title) } : {}), ...(document !== undefined ? { document } : {}), edited: at },
        });
      }
      if ((mapState !== undefined && mapState !== state.state) || (subscribed !== undefined && subscribed !== state.subscribed)) {
        events.push({ type: 'MapStateChanged', data: { mapId: state.mapId, state: mapState ?? state.state, subscribed: subscribed ?? state.subscribed, changed: at } });
        // A draft map never published goes public with its first slot: putting it in one is
        // publishing it, so the map as it is now is its first published revision.
        const publishing = publishingOf(state);
        if (publishing.mode === 'manual' && publishing.publishedRevision === null && !usesTestSlot(mapState ?? state.state)) {
          events.push({ type: 'MapPublished', data: { mapId: state.mapId, revision: String(state.revision + events.length), at, by: principal.uid } });
        }
      }
      return events;
    }
    case 'SaveVersion': {
      const map = requireMapFor(state, principal, 'edit');
      return [versionSaved(map, command.data.historyId, principal, at, { auto: false, name: command.data.name })];
    }
    case 'RenameVersion': {
      const map = requireMapFor(state, principal, 'edit');
      requireHistoryItem(map, command.data.historyId);
      return [{ type: 'VersionRenamed', data: { mapId: map.mapId, historyId: command.data.historyId, name: command.data.name } }];
    }
    case 'DeleteVersion': {
      const map = requireMapFor(state, principal, 'edit');
      requireHistoryItem(map, command.data.historyId);
      return [{ type: 'VersionDeleted', data: { mapId: map.mapId, historyId: command.data.historyId } }];
    }
    case 'RestoreVersion': {
      const map = requireMapFor(state, principal, 'edit');
      const item = requireHistoryItem(map, command.data.historyId);
      // A version folded from events recorded under older rules may break today's limits: it is
      // refused, never recorded as a MapRestored its readers would refuse.
      const refused = recordedDocumentProblem(command.data.document);
      if (refused) throw new DomainError('invalid-argument', `This version cannot be restored: ${refused}.`);
      // Before every restore, the map as it is now: a restore is undone by restoring this.
      const before = versionSaved(map, command.data.autoHistoryId, principal, at, { auto: true, name: `Before restoring “${item.name ?? formatEntryTime(item.created)}”` });
      const restored: MapEdit = { type: 'MapRestored', historyId: item.id, revision: String(item.revision), document: command.data.document };
      return [before, editEvent(restored, map.mapId, at)];
    }
    case 'SetMapDataSource': {
      // The owner and editors, who may edit the map's content the syncs change.
      const map = requireMapFor(state, principal, 'edit');
      const current = map.dataSource?.source ?? null;
      if (JSON.stringify(current) === JSON.stringify(command.data.source)) return [];
      return [{ type: 'MapDataSourceSet', data: { mapId: map.mapId, source: command.data.source, at, by: principal.uid } }];
    }
    case 'StartScheduledSync': {
      const map = requireMapFor(state, principal, 'edit');
      // Decided on the stream as it is: a claim another process recorded first leaves it not due.
      if (!isSyncDue(map.dataSource, context.now)) return [];
      return [{ type: 'MapDataSourceSyncStarted', data: { mapId: map.mapId, at } }];
    }
    case 'RecordSyncOutcome': {
      const map = requireMapFor(state, principal, 'edit');
      // Recorded when a source starts or stops failing (its owner is mailed once per failing stretch).
      const wasFailing = (map.dataSource?.lastError ?? null) !== null;
      if (!map.dataSource || wasFailing === (command.data.error !== null)) return [];
      return [{ type: 'MapDataSourceSyncFailed', data: { mapId: map.mapId, at, error: command.data.error } }];
    }
    case 'RecordSyncOverrides': {
      const map = requireMapFor(state, principal, 'edit');
      if (!map.dataSource) return [];
      const { overrides, more } = command.data;
      if (JSON.stringify(map.dataSource.overrides ?? []) === JSON.stringify(overrides) && (map.dataSource.moreOverrides ?? 0) === more) return [];
      return [{ type: 'MapDataSourceOverridesFound', data: { mapId: map.mapId, at, overrides, more } }];
    }
    case 'ResolveSyncOverrides': {
      const map = requireMapFor(state, principal, 'edit');
      const dataSource = map.dataSource;
      if (!dataSource) throw new DomainError('invalid-argument', 'This map has no data source, so none of its fields is overridden.');
      const found = new Map((dataSource.overrides ?? []).map((override) => [override.id, override.source as Record<string, unknown>]));
      const locations = new Map(map.document.locations.map((location) => [location.id, location as unknown as Record<string, unknown>]));
      const choices: Array<{ id: string; field: (typeof command.data.overrides)[number]['field']; choice: 'keep' | 'source' }> = [];
      const changes = new Map<string, Record<string, unknown>>();
      const seen = new Set<string>();
      for (const { key, field, choice } of command.data.overrides) {
        if (seen.has(`${key}\u0000${field}`)) continue;
        seen.add(`${key}\u0000${field}`);
        const source = found.get(key);
        const location = locations.get(key);
        const name = location ? `“${String(location.title)}”` : `“${key}”`;
        if (!source || !(field in source) || field === 'precision') {
          throw new DomainError('aborted', `The ${field} of ${name} is not overridden any more (a sync or someone else changed it): reload the list and choose again.`);
        }
        if (!location) throw new DomainError('aborted', `The location ${name} is no longer on the map: reload the list and choose again.`);
        const isKept = dataSource.kept?.[key]?.includes(field) ?? false;
        if (choice === 'keep') {
          if (!isKept) choices.push({ id: key, field, choice });
          continue;
        }
        choices.push({ id: key, field, choice });
        const patch = { ...changes.get(key) };
        if (JSON.stringify(location[field] ?? null) !== JSON.stringify(source[field] ?? null)) patch[field] = source[field];
        // A position from the source is as precise as the source said.
        if (field === 'position' && 'position' in patch) patch.precision = source.precision ?? null;
        if (Object.keys(patch).length > 0) changes.set(key, patch);
      }
      if (choices.length === 0) return [];
      // The source's values as one import of the source (one undo step; history keeps what they replaced).
      const edits: MapEditedEvent[] = [];
      if (changes.size > 0) {
        const edit = {
          type: 'ImportApplied',
          source: { format: dataSource.format ?? 'csv', name: dataSourceName(dataSource.source), mapping: null, overrides: true },
          layers: [],
          groups: [],
          locations: [],
          updates: [...changes].map(([id, patch]) => ({ id, changes: patch })),
        } as MapEdit;
        const problem = checkEdit(map.document, edit);
        if (problem) throw new DomainError('invalid-argument', `The source's value cannot be used (${problem}): keep Mapfold's value, or sync again.`);
        edits.push(editEvent(edit, map.mapId, at));
      }
      const lastAt = map.lastVersionAt ? Date.parse(map.lastVersionAt) : Number.NEGATIVE_INFINITY;
      const checkpoint: MapEvent[] =
        edits.length > 0 && context.newHistoryId && context.now.getTime() - lastAt >= AUTO_VERSION_EVERY_MS && !map.history.some((item) => item.revision >= map.lastChangeRevision)
          ? [versionSaved(map, context.newHistoryId(), principal, at, { auto: true })]
          : [];
      return [...checkpoint, { type: 'MapDataSourceOverridesResolved', data: { mapId: map.mapId, at, by: principal.uid, choices } }, ...edits];
    }
    default: {
      if (isPublishingCommand(command)) {
        if (state.status !== 'active') throw new DomainError('not-found', 'Map not found.');
        const { mapId, revision, lastChangeRevision } = state;
        return decidePublishing(command, { mapId, revision, lastChangeRevision, publishing: publishingOf(state), facts: factsOf(state) }, principal, context.now);
      }
      if (isSharingCommand(command)) {
        // Accepting needs no role (the invitation is the right to one); the rest check theirs.
        if (state.status !== 'active') throw new DomainError('not-found', 'Map not found.');
        return decideSharing(command, state, principal, context.now);
      }
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** The map aggregate as the command handler takes it: stream `map-{id}`, read with {@link MapEvent}. */
export const mapDecider: Decider<MapCommand, MapEvent, MapAggregate, MapContext> = {
  name: 'map',
  streamId: streams.map,
  schema: MapEvent,
  eventTypes: MAP_EVENT_TYPES,
  initialState: initialMapState,
  evolve: evolveMap,
  decide: decideMap,
};
