/**
 * `directions.requested` for webhooks (issue 30 item 2). Directions are no event in the log:
 * the public viewer's beacons carry counters (events/insights.ts), thousands a second at busy
 * times. So the beacon route hands each directions counter here, in memory and without a
 * database read; every {@link DIRECTIONS_WINDOW_MS} the counts of each map become one
 * `directions.requested` delivery per webhook that wants it, `{mapId, directions: [{locationId,
 * count}]}`, and from then on are delivered at least once like every other. What a crash loses
 * is what the insights counter loses: the counts of the current window.
 */
import type { IdGenerator } from '../clock.js';
import type { Database } from '../../ports/database.js';
import { enqueueForMap } from './webhook-reactor.js';

export const DIRECTIONS_WINDOW_MS = 30_000;

export class DirectionsBatcher {
  private counts = new Map<string, Map<string, number>>();

  add(mapId: string, locationId: string, count: number): void {
    let map = this.counts.get(mapId);
    if (!map) this.counts.set(mapId, (map = new Map()));
    map.set(locationId, (map.get(locationId) ?? 0) + count);
  }

  /** Makes the deliveries of the counts so far; the number made. */
  async flush(deps: { db: Database; ids: IdGenerator; ownerOf(mapId: string): Promise<string | null> }, now: Date): Promise<number> {
    const taken = this.counts;
    this.counts = new Map();
    let added = 0;
    for (const [mapId, locations] of taken) {
      added += await enqueueForMap(deps, {
        mapId,
        type: 'directions.requested',
        id: `evt_${deps.ids.uuid()}`,
        created: now.toISOString(),
        data: { directions: [...locations].map(([locationId, count]) => ({ locationId, count })) },
        position: null,
        now,
      });
    }
    return added;
  }
}
