/**
 * The `map:{id}` snapshots the live hub sends new subscribers, kept per map with the stream
 * revision they hold, as the message text itself. A snapshot at revision r stays a correct
 * starting point for good (the subscriber is then sent the events after r), so subscribing
 * again, or many tabs opening one big map, reads and serialises it once instead of each time:
 * re-subscribing in a loop to a 25,000-location map (8 MB) once pushed everyone's latency to
 * seconds (issue 26). Loads of one map share one read; the memory is bounded, least recently
 * used first out.
 */
import { LRUCache } from 'lru-cache';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../../events/live-messages.js';
import type { TopicSnapshot } from './topic-access.js';

export interface SnapshotMessage {
  /** The stream revision the snapshot's document holds. */
  revision: bigint;
  /** The `snapshot` message, ready to send. */
  text: string;
  /** Whether it was kept from an earlier subscribe (it may trail the stream). */
  kept: boolean;
}

/** Text kept at most, in UTF-16 units (about bytes): a few big maps, or many small ones. */
const MAX_KEPT = 64 * 1024 * 1024;

export class MapSnapshots {
  /** A kept snapshot further behind the stream than this many events is loaded again. */
  static readonly REUSE_WITHIN_EVENTS = 200;

  private readonly kept = new LRUCache<string, { revision: bigint; text: string }>({ maxSize: MAX_KEPT, sizeCalculation: (entry) => Math.max(1, entry.text.length) });
  private readonly loading = new Map<string, Promise<{ revision: bigint; text: string } | null>>();

  /** The map's snapshot: the kept one unless `fresh`, else read (once for concurrent callers). */
  async get(topic: string, mapId: string, load: () => Promise<TopicSnapshot>, options: { fresh?: boolean } = {}): Promise<SnapshotMessage | null> {
    const kept = options.fresh ? undefined : this.kept.get(mapId);
    if (kept) return { ...kept, kept: true };
    let pending = this.loading.get(mapId);
    if (!pending) {
      pending = this.read(topic, mapId, load).finally(() => this.loading.delete(mapId));
      this.loading.set(mapId, pending);
    }
    const read = await pending;
    return read && { ...read, kept: false };
  }

  private async read(topic: string, mapId: string, load: () => Promise<TopicSnapshot>): Promise<{ revision: bigint; text: string } | null> {
    const snapshot = await load();
    if (!snapshot.data || snapshot.data.kind !== 'map') return null;
    const message: ServerMessage = { v: LIVE_PROTOCOL_VERSION, type: 'snapshot', topic, position: snapshot.position, data: snapshot.data };
    const entry = { revision: BigInt(snapshot.data.map.revision), text: JSON.stringify(message) };
    // A read that finished after a newer one keeps the newer.
    const current = this.kept.get(mapId);
    if (entry.text.length <= MAX_KEPT && (!current || current.revision <= entry.revision)) this.kept.set(mapId, entry);
    return entry;
  }
}
