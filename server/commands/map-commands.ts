/**
 * The map functions of spec §7 (createMap, saveMap, deleteMap): from a validated payload and
 * the caller to the map decider, with the read-model facts the decider needs. Rich text in a
 * payload is made safe before the decider sees it, so no event records hostile markup.
 */
import { z } from 'zod';
import type { functionPayloads } from '../../events/functions.js';
import { requireCan } from '../../events/map-access.js';
import { factsOf, initialMapState, mapDecider, type MapAggregate, type MapCommand, type MapEvent } from '../../events/map.js';
import { emptyMapDocument } from '../../events/map-document.js';
import { streams } from '../../events/streams.js';
import { countTestMaps } from '../../projections/maps-list.js';
import type { IdGenerator } from '../clock.js';
import { sanitizeMapDocument, sanitizeMapEdits } from '../content/rich-text-sanitizer.js';
import type { Queryable } from '../../ports/database.js';
import type { EventStore } from '../../ports/event-store.js';
import type { MapHistory } from '../history/map-history.js';
import { DomainError } from '../../events/errors.js';
import { decideCommand, foldStream, type CommandMetadata, type CommandOptions, type CommandOutcome } from './command-handler.js';

export interface MapCommandDeps {
  store: EventStore;
  db: Queryable;
  ids: IdGenerator;
  /** The map's past (a restore needs the document of an earlier revision; other commands do not). */
  history?: MapHistory;
}

/** The map's current state through the history's snapshots; a map never created is absent. */
async function loadMap(history: MapHistory, mapId: string): Promise<{ state: MapAggregate; revision: bigint | null }> {
  try {
    return await history.stateAt(mapId);
  } catch (error) {
    if (error instanceof DomainError && error.code === 'not-found') return { state: initialMapState, revision: null };
    throw error;
  }
}

export async function runMapCommand(deps: MapCommandDeps, command: MapCommand, meta: CommandMetadata): Promise<CommandOutcome<MapEvent>> {
  const testMapsInUse = meta.principal && command.type === 'CreateMap' ? await countTestMaps(deps.db, meta.principal.uid) : 0;
  const context = { principal: meta.principal, now: meta.now, testMapsInUse, newHistoryId: () => deps.ids.uuid() };
  // A long map stream is read from its newest snapshot, not from the start, on every edit; the
  // first attempt decides on the state this process kept (its own last append's, usually the
  // map now), and its append fails and the next attempt reads if the stream moved on.
  const history = deps.history;
  const mapId = command.data.mapId;
  const options: CommandOptions<MapAggregate> = history
    ? {
        load: async (attempt) => (attempt === 1 ? history.keptState(mapId) : undefined) ?? loadMap(history, mapId),
        appended: (states) => history.keepAppended(mapId, states),
      }
    : {};
  return decideCommand(deps, mapDecider, command.data.mapId, command, context, meta, options);
}

export async function createMap(deps: MapCommandDeps, payload: z.output<typeof functionPayloads.createMap>, meta: CommandMetadata) {
  const mapId = deps.ids.mapId();
  const outcome = await runMapCommand(
    deps,
    { type: 'CreateMap', data: { mapId, title: payload.title, document: payload.mapData ? sanitizeMapDocument(payload.mapData) : emptyMapDocument() } },
    meta,
  );
  return { result: mapId, position: outcome.position };
}

/** The revision a caller's document was loaded at (decimal text, checked by the payload schema). */
function revisionOf(revision: string | undefined): bigint | undefined {
  return revision === undefined ? undefined : BigInt(revision);
}

/**
 * Replaces the title and/or the whole document. The decider refuses a document loaded at an
 * older revision than the map's (aborted, naming both), so concurrent saves never erase each
 * other's or anyone's edits.
 */
export async function saveMap(deps: MapCommandDeps, payload: z.output<typeof functionPayloads.saveMap>, meta: CommandMetadata) {
  const outcome = await runMapCommand(
    deps,
    {
      type: 'SaveMap',
      data: { mapId: payload.id, title: payload.title, document: payload.mapData && sanitizeMapDocument(payload.mapData), expectedRevision: revisionOf(payload.revision) },
    },
    meta,
  );
  return { result: null, position: outcome.position };
}

export async function deleteMap(deps: MapCommandDeps, payload: z.output<typeof functionPayloads.deleteMap>, meta: CommandMetadata) {
  const outcome = await runMapCommand(deps, { type: 'DeleteMap', data: { mapId: payload.id } }, meta);
  return { result: null, position: outcome.position };
}

export async function editMap(deps: MapCommandDeps, payload: z.output<typeof functionPayloads.editMap>, meta: CommandMetadata) {
  const outcome = await runMapCommand(deps, { type: 'EditMap', data: { mapId: payload.id, edits: sanitizeMapEdits(payload.edits) } }, meta);
  // The editor drops its pending edits once a snapshot of this revision (or later) arrives.
  return { result: { revision: String(outcome.revision) }, position: outcome.position };
}

export async function saveMapHistory(deps: MapCommandDeps, payload: z.output<typeof functionPayloads.saveMapHistory>, meta: CommandMetadata) {
  const historyId = deps.ids.uuid();
  const outcome = await runMapCommand(deps, { type: 'SaveVersion', data: { mapId: payload.mapId, historyId, name: payload.name } }, meta);
  return { result: { historyId }, position: outcome.position };
}

export async function setMapHistoryName(deps: MapCommandDeps, payload: z.output<typeof functionPayloads.setMapHistoryName>, meta: CommandMetadata) {
  const outcome = await runMapCommand(deps, { type: 'RenameVersion', data: { mapId: payload.mapId, historyId: payload.historyMapId, name: payload.name } }, meta);
  return { result: null, position: outcome.position };
}

export async function deleteMapHistory(deps: MapCommandDeps, payload: z.output<typeof functionPayloads.deleteMapHistory>, meta: CommandMetadata) {
  const outcome = await runMapCommand(deps, { type: 'DeleteVersion', data: { mapId: payload.mapId, historyId: payload.historyMapId } }, meta);
  return { result: null, position: outcome.position };
}

/**
 * Restores a history entry: the entry's document is read from the stream (through the
 * snapshots), then the decider records the entry made just before and the restore itself.
 * Who may, and whether the entry exists, the decider decides; it is asked first with the
 * current state so another user's map answers permission-denied, never "no such version".
 */
export async function restoreMapHistory(deps: MapCommandDeps, payload: z.output<typeof functionPayloads.restoreMapHistory>, meta: CommandMetadata) {
  const principal = meta.principal;
  const history = deps.history;
  if (!history) throw new Error('restoreMapHistory needs the map history service');
  const current = await history.stateAt(payload.mapId).catch((error: unknown) => {
    if (error instanceof DomainError && error.code === 'not-found') throw new DomainError('not-found', 'Map not found.');
    throw error;
  });
  const map = current.state;
  if (map.status !== 'active') throw new DomainError('not-found', 'Map not found.');
  requireCan(principal, factsOf(map), 'edit');
  const entry = map.history.find((item) => item.id === payload.historyMapId);
  if (!entry) throw new DomainError('not-found', 'Version not found.');
  const then = await history.stateAt(payload.mapId, BigInt(entry.revision));
  if (then.state.status !== 'active') throw new DomainError('not-found', 'Version not found.');
  const outcome = await runMapCommand(
    deps,
    { type: 'RestoreVersion', data: { mapId: payload.mapId, historyId: entry.id, document: then.state.document, autoHistoryId: deps.ids.uuid() } },
    meta,
  );
  return { result: null, position: outcome.position };
}

/**
 * An admin's batch update of a map and its data (spec §6), recorded with the admin as the
 * actor. A document needs the revision it was loaded at, as for saveMap: an admin's whole
 * document erases the owner's edits just the same.
 */
export async function adminUpdateMap(deps: MapCommandDeps, payload: z.output<typeof functionPayloads.adminUpdateMap>, meta: CommandMetadata) {
  if (!meta.principal?.admin) throw new DomainError('permission-denied', 'Only an admin may do this.');
  const document = payload.mapData ? sanitizeMapDocument(payload.mapData) : undefined;
  const outcome = await runMapCommand(
    deps,
    {
      type: 'AdminUpdateMap',
      data: { mapId: payload.id, title: payload.title, document, state: payload.state, subscribed: payload.subscribed, expectedRevision: revisionOf(payload.revision) },
    },
    meta,
  );
  return { result: null, position: outcome.position };
}

/** Who the product itself acts as when billing changes a map with no user behind it (a webhook). */
export const BILLING_PRINCIPAL = { uid: 'mapfold-billing', email: '', emailVerified: true, displayName: 'Mapfold billing', admin: true, stripeRole: null };

/** A map as its stream has it now (billing checks its owner and state before touching slots). */
export async function currentMap(deps: MapCommandDeps, mapId: string): Promise<MapAggregate> {
  if (deps.history) return (await loadMap(deps.history, mapId)).state;
  // A stream never written reads as empty: the map is absent.
  return (await foldStream(deps.store, streams.map(mapId), mapDecider)).state;
}

/**
 * Sets a map's state and subscribed flag for billing, which has already checked the caller's
 * right to (owner, slot, licence). Recorded with the caller, or the product, as the actor.
 */
export async function setMapState(deps: MapCommandDeps, change: { mapId: string; state: number; subscribed: boolean }, meta: CommandMetadata) {
  const principal = meta.principal ? { ...meta.principal, admin: true } : BILLING_PRINCIPAL;
  return runMapCommand(deps, { type: 'AdminUpdateMap', data: change }, { ...meta, principal });
}
