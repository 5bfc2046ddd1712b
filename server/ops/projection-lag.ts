import { START } from '../../events/position.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import type { Projection } from '../../projections/projection.js';
import type { Database } from '../../ports/database.js';
import type { EventStore } from '../../ports/event-store.js';

const LAG_CAP = 10_000;

/**
 * Per projection, how many events it reads lie beyond its checkpoint (up to a cap): of its
 * streams, and of its `eventTypes` when it names them (the row of a projection that reads few
 * types moves past the others a moment after them, projections/runner.ts).
 */
export async function projectionLag(db: Database, store: EventStore, projections: readonly Projection[]): Promise<Record<string, number>> {
  const lag: Record<string, number> = {};
  for (const projection of projections) {
    const checkpoint = await readCheckpoint(db, projection.name);
    const pending = await store.readAll({
      after: checkpoint?.position ?? START,
      maxCount: LAG_CAP,
      filter: { streamPrefixes: projection.streamPrefixes },
    });
    const types = projection.eventTypes;
    lag[projection.name] = types ? pending.filter((event) => types.has(event.type)).length : pending.length;
  }
  return lag;
}
