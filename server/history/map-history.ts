/**
 * A map's past, read from its stream: the map as it was at any revision, and its events in
 * words. Folding a long stream from the start on every read would be slow (50,000 events take
 * seconds), so the states at every {@link SNAPSHOT_EVERY}th revision are kept in
 * `map_snapshots` as they are first computed. A stream never changes, so a snapshot never goes
 * stale: reading revision N folds at most that many events after the nearest snapshot.
 */
import { DomainError } from '../../events/errors.js';
import type { TimelineItem, TimelinePage } from '../../events/history-api.js';
import { evolveMap, initialMapState, MapEvent, type MapAggregate } from '../../events/map.js';
import { withoutForeignLayerFiles } from '../../events/map-document.js';
import { emptySharing } from '../../events/map-sharing.js';
import { describeEvent } from '../../events/map-timeline.js';
import { streams } from '../../events/streams.js';
import type { Database, Queryable } from '../../ports/database.js';
import type { EventStore, RecordedEvent } from '../../ports/event-store.js';

export const SNAPSHOT_EVERY = 250;

/**
 * How many maps' newest states each process keeps in memory. Every command on a map loads its
 * newest state; for a 5,000-location map reading the snapshot and folding up to 249 events
 * after it took most of an edit's time, so a map being edited stays here and each command reads
 * only the events after the kept revision (usually none or one). A stream only grows, so a kept
 * state plus its stream's tail is the map now, whichever process appended the tail.
 */
const LATEST_STATES_KEPT = 32;

export const MAP_SNAPSHOTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS map_snapshots (
  map_id text NOT NULL,
  revision bigint NOT NULL,
  state jsonb NOT NULL,
  PRIMARY KEY (map_id, revision)
);`;

export type ActiveMap = Extract<MapAggregate, { status: 'active' }>;

/** What a recorded event says about who did it, for the words ("Ana", or the product). */
function actorOf(recorded: RecordedEvent): TimelineItem['actor'] {
  const uid = recorded.metadata.userId;
  if (!uid) return { uid: null, name: 'Mapfold' };
  return { uid, name: recorded.metadata.userName?.trim() || 'Someone' };
}

export class MapHistory {
  private constructor(
    private readonly db: Queryable,
    private readonly store: EventStore,
  ) {}

  static async open(db: Database, store: EventStore): Promise<MapHistory> {
    await db.exec(MAP_SNAPSHOTS_SCHEMA);
    return new MapHistory(db, store);
  }

  /**
   * The map right after the event at `revision` (the latest when omitted), and the stream's
   * last revision. Not found when the map never existed or the revision is beyond its stream.
   */
  async stateAt(mapId: string, revision?: bigint): Promise<{ state: MapAggregate; revision: bigint }> {
    const { state, revision: reached } = revision === undefined ? await this.latestState(mapId) : await this.fold(mapId, revision, () => {});
    if (state.status === 'absent' || (revision !== undefined && reached < revision)) throw new DomainError('not-found', 'There is no such revision of this map.');
    return { state, revision: reached };
  }

  /** The newest states of recently read maps, least recently used first. */
  private readonly latest = new Map<string, { state: MapAggregate; revision: bigint }>();

  /**
   * The map's newest state as this process last knew it, without reading: a command's first
   * attempt decides on it, and its append (at this revision) fails if the stream moved on, when
   * the next attempt reads the tail (command-handler.ts). Undefined when none is kept.
   */
  keptState(mapId: string): { state: MapAggregate; revision: bigint } | undefined {
    return this.latest.get(mapId);
  }

  /**
   * Keeps the states a command's own append made (each appended event's revision and the state
   * after it), so the next command on the map need not read its own events back; keeps the
   * snapshots those revisions are due, as a fold would.
   */
  keepAppended(mapId: string, states: ReadonlyArray<{ state: MapAggregate; revision: bigint }>): void {
    const newest = states.at(-1);
    const kept = this.latest.get(mapId);
    if (!newest || !kept || kept.revision !== states[0]!.revision - 1n) return;
    this.latest.delete(mapId);
    if (newest.state.status !== 'absent') this.latest.set(mapId, { state: newest.state, revision: newest.revision });
    const due = states.filter(({ state, revision }) => (revision + 1n) % BigInt(SNAPSHOT_EVERY) === 0n && state.status === 'active');
    if (due.length > 0) void this.keepSnapshots(mapId, due.map(({ state, revision }) => ({ revision: revision.toString(), state }))).catch(() => {});
  }

  private async keepSnapshots(mapId: string, kept: ReadonlyArray<{ revision: string; state: MapAggregate }>): Promise<void> {
    await this.db.query(
      `INSERT INTO map_snapshots (map_id, revision, state)
       SELECT $1, revision, state FROM jsonb_to_recordset($2::jsonb) AS r(revision bigint, state jsonb)
       ON CONFLICT DO NOTHING`,
      [mapId, JSON.stringify(kept)],
    );
  }

  /** The map now: the kept state and the events after it, or a fold from the nearest snapshot. */
  private async latestState(mapId: string): Promise<{ state: MapAggregate; revision: bigint }> {
    const kept = this.latest.get(mapId);
    const now = kept ? await this.foldFrom(mapId, kept, undefined, () => {}) : await this.fold(mapId, undefined, () => {});
    this.latest.delete(mapId);
    // A map never written is not kept: nothing to save, and ids asked for at random must not crowd out real maps.
    if (now.revision >= 0n) this.latest.set(mapId, now);
    if (this.latest.size > LATEST_STATES_KEPT) this.latest.delete(this.latest.keys().next().value!);
    return now;
  }

  /**
   * A page of the map's events in words, newest first: the `limit` events before revision
   * `before` (exclusive; the newest when omitted).
   */
  async timeline(mapId: string, options: { before?: bigint; limit: number }): Promise<TimelinePage> {
    const last = await this.lastRevision(mapId);
    if (last < 0n) throw new DomainError('not-found', 'Map not found.');
    const end = options.before === undefined ? last : options.before - 1n;
    if (end < 0n) return { items: [], total: Number(last + 1n), next: null };
    const start = end - BigInt(options.limit) + 1n > 0n ? end - BigInt(options.limit) + 1n : 0n;
    const items: TimelineItem[] = [];
    // Each event is told against the map as it was just before it.
    const base = start > 0n ? (await this.fold(mapId, start - 1n, () => {})).state : initialMapState;
    let state = base;
    const page = await this.store.readStream(streams.map(mapId), { fromRevision: start, maxCount: Number(end - start + 1n) });
    for (const recorded of page) {
      const event = MapEvent.parse({ type: recorded.type, data: recorded.data });
      const actor = actorOf(recorded);
      const described = describeEvent(state, event, actor.name);
      items.push({
        revision: recorded.revision.toString(),
        type: recorded.type,
        at: recorded.metadata.at,
        actor,
        summary: described.summary,
        locationIds: described.locationIds,
        ...(described.historyId ? { historyId: described.historyId } : {}),
      });
      state = evolveMap(state, event);
    }
    items.reverse();
    return { items, total: Number(last + 1n), next: start > 0n ? start.toString() : null };
  }

  /** Every event of the map in words, oldest first (the audit log), with its data. */
  async auditLog(mapId: string): Promise<Array<TimelineItem & { data: unknown }>> {
    const entries: Array<TimelineItem & { data: unknown }> = [];
    let state: MapAggregate = initialMapState;
    for (const recorded of await this.store.readStream(streams.map(mapId))) {
      const event = MapEvent.parse({ type: recorded.type, data: recorded.data });
      const actor = actorOf(recorded);
      const described = describeEvent(state, event, actor.name);
      entries.push({
        revision: recorded.revision.toString(),
        type: recorded.type,
        at: recorded.metadata.at,
        actor,
        summary: described.summary,
        locationIds: described.locationIds,
        ...(described.historyId ? { historyId: described.historyId } : {}),
        data: recorded.data,
      });
      state = evolveMap(state, event);
    }
    return entries;
  }

  private async lastRevision(mapId: string): Promise<bigint> {
    // The newest snapshot tells where to start looking; the stream's tail says the rest.
    const from = await this.nearestSnapshot(mapId, undefined);
    const events = await this.store.readStream(streams.map(mapId), { fromRevision: from ? from.revision + 1n : 0n });
    if (events.length > 0) return events.at(-1)!.revision;
    return from ? from.revision : -1n;
  }

  private async nearestSnapshot(mapId: string, atMost: bigint | undefined): Promise<{ revision: bigint; state: MapAggregate } | null> {
    const { rows } = await this.db.query<{ revision: string; state: MapAggregate }>(
      atMost === undefined
        // Ordered by the column, not by its text (an output name would win in ORDER BY: '9999' > '10249').
        ? 'SELECT s.revision::text AS revision, s.state FROM map_snapshots s WHERE s.map_id = $1 ORDER BY s.revision DESC LIMIT 1'
        : 'SELECT s.revision::text AS revision, s.state FROM map_snapshots s WHERE s.map_id = $1 AND s.revision <= $2 ORDER BY s.revision DESC LIMIT 1',
      atMost === undefined ? [mapId] : [mapId, atMost.toString()],
    );
    const row = rows[0];
    if (!row) return null;
    // A synced map's snapshot kept before the values its syncs applied were kept (issue 30 item
    // 4, DataSourceState.applied) would leave its fields unguarded: the map's snapshots are
    // dropped, once, and made again from its events.
    if (row.state.status === 'active' && (row.state.dataSource?.keys.length ?? 0) > 0 && !row.state.dataSource?.applied) {
      await this.db.query('DELETE FROM map_snapshots WHERE map_id = $1', [mapId]);
      return null;
    }
    // A snapshot kept before floors had to be the product's own files may hold another site's
    // drawing: it reads as the events now read (no drawing), never handed to a viewer.
    // One kept before sharing (issue 16) has no members: it had none then.
    const state = row.state.status === 'active'
      ? { ...row.state, document: withoutForeignLayerFiles(row.state.document), sharing: row.state.sharing ?? emptySharing() }
      : row.state;
    return { revision: BigInt(row.revision), state };
  }

  /** Folds the stream up to `revision` from the nearest snapshot, keeping new snapshots on the way. */
  private async fold(mapId: string, revision: bigint | undefined, onEvent: (recorded: RecordedEvent) => void): Promise<{ state: MapAggregate; revision: bigint }> {
    const snapshot = await this.nearestSnapshot(mapId, revision);
    return this.foldFrom(mapId, { state: snapshot?.state ?? initialMapState, revision: snapshot?.revision ?? -1n }, revision, onEvent);
  }

  /** Folds the stream's events after `start` up to `revision`, keeping new snapshots on the way. */
  private async foldFrom(
    mapId: string,
    start: { state: MapAggregate; revision: bigint },
    revision: bigint | undefined,
    onEvent: (recorded: RecordedEvent) => void,
  ): Promise<{ state: MapAggregate; revision: bigint }> {
    let state = start.state;
    let reached = start.revision;
    const from = reached + 1n;
    if (revision !== undefined && from > revision) return { state, revision: reached };
    const events = await this.store.readStream(streams.map(mapId), {
      fromRevision: from,
      ...(revision !== undefined ? { maxCount: Number(revision - from + 1n) } : {}),
    });
    const kept: Array<{ revision: string; state: MapAggregate }> = [];
    for (const recorded of events) {
      state = evolveMap(state, MapEvent.parse({ type: recorded.type, data: recorded.data }));
      reached = recorded.revision;
      onEvent(recorded);
      if ((recorded.revision + 1n) % BigInt(SNAPSHOT_EVERY) === 0n && state.status === 'active') kept.push({ revision: recorded.revision.toString(), state });
    }
    if (kept.length > 0) await this.keepSnapshots(mapId, kept);
    return { state, revision: reached };
  }
}

/** The map at a revision, as an active map (not found otherwise). */
export function activeMap(state: MapAggregate): ActiveMap {
  if (state.status !== 'active') throw new DomainError('not-found', 'Map not found.');
  return state;
}
