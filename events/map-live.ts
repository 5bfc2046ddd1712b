/**
 * A map as a live client holds it: the `map:{id}` snapshot with every pushed event folded in
 * after it, by the same pure code the projections use (`applyEdit` of the recorded edit, the
 * history entries as projections/maps-list.ts keeps them). Pure; the client's live connection
 * and the tests use it.
 */
import type { LiveMapEvent, LiveMapSnapshot } from './live-messages.js';
import type { MapDocument } from './map-document.js';
import { editOf, isEditEvent } from './map.js';
import { applyEdit } from './map-edits.js';
import type { HistoryEntry } from './read-models.js';

export interface LiveMap {
  id: string;
  title: string;
  document: MapDocument;
  /** The last stream revision folded in. */
  revision: bigint;
  /** History entries, oldest first. */
  history: readonly HistoryEntry[];
  /** A MapDeleted was folded in. */
  deleted: boolean;
}

export function liveMapOf(snapshot: LiveMapSnapshot): LiveMap {
  return { id: snapshot.id, title: snapshot.title, document: snapshot.document, revision: BigInt(snapshot.revision), history: snapshot.history, deleted: false };
}

/**
 * Folds one event into the map. The caller applies revision r only on top of r - 1 (see
 * {@link foldLiveEvents}); an event the client does not know (`event` null, or a type this
 * fold does not read) only moves the revision.
 */
export function evolveLiveMap(map: LiveMap, entry: LiveMapEvent): LiveMap {
  const revision = BigInt(entry.revision);
  const event = entry.event;
  if (!event) return { ...map, revision };
  switch (event.type) {
    case 'MapCreated':
      return { ...map, title: event.data.title, document: event.data.document, revision };
    case 'MapSaved':
      return { ...map, title: event.data.title ?? map.title, document: event.data.document ?? map.document, revision };
    case 'MapDeleted':
      return { ...map, deleted: true, revision };
    case 'VersionSaved': {
      const d = event.data;
      const entryOf: HistoryEntry = { id: d.historyId, mapId: d.mapId, revision: d.revision, created: d.created, author: d.author, auto: d.auto, ...(d.name !== undefined ? { name: d.name } : {}) };
      return { ...map, history: [...map.history, entryOf], revision };
    }
    case 'VersionRenamed':
      return { ...map, history: map.history.map((item) => (item.id === event.data.historyId ? { ...item, name: event.data.name } : item)), revision };
    case 'VersionDeleted':
      return { ...map, history: map.history.filter((item) => item.id !== event.data.historyId), revision };
    default:
      if (isEditEvent(event)) return { ...map, document: applyEdit(map.document, editOf(event)), revision };
      return { ...map, revision };
  }
}

export type FoldResult =
  | { ok: true; map: LiveMap; applied: LiveMapEvent[] }
  /** An event's revision was not the next one: the client must ask for the events since `map.revision`. */
  | { ok: false; map: LiveMap; applied: LiveMapEvent[] };

/**
 * Folds pushed events in order: ones at or below the map's revision are already in it (a
 * catch-up and a push may overlap) and are skipped; one beyond the next revision is a gap, and
 * the fold stops there.
 */
export function foldLiveEvents(map: LiveMap, events: readonly LiveMapEvent[]): FoldResult {
  let current = map;
  const applied: LiveMapEvent[] = [];
  for (const entry of events) {
    const revision = BigInt(entry.revision);
    if (revision <= current.revision) continue;
    if (revision !== current.revision + 1n) return { ok: false, map: current, applied };
    current = evolveLiveMap(current, entry);
    applied.push(entry);
  }
  return { ok: true, map: current, applied };
}
