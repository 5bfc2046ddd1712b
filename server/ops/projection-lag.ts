import { START } from '../../events/position.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import type { Projection } from '../../projections/projection.js';
import type { Database } from '../../ports/database.js';
import type { EventStore } from '../../ports/event-store.js';

const LAG_CAP = 10_000;

/** Per projection, how many events of its streams lie beyond its checkpoint (up to a cap). */
export async function projectionLag(db: Database, store: EventStore, projections: readonly Projection[]): Promise<Record<string, number>> {
  const lag: Record<string, number> = {};
  for (const projection of projections) {
    const checkpoint = await readCheckpoint(db, projection.name);
    const pending = await store.readAll({
      after: checkpoint?.position ?? START,
      maxCount: LAG_CAP,
      filter: { streamPrefixes: projection.streamPrefixes },
    });
    lag[projection.name] = pending.length;
  }
  return lag;
}
