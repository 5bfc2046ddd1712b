import { randomUUID } from 'node:crypto';
import type { Database } from '../ports/database.js';
import type { NewEvent } from '../ports/event-store.js';
import { PostgresEventStore } from '../server/event-store/postgres-event-store.js';

function event(): NewEvent {
  const id = randomUUID();
  return {
    id,
    type: 'MapSaved',
    data: { mapId: 'bench', title: 'Bench title', edited: new Date().toISOString() },
    metadata: { userId: 'bench-user', at: new Date().toISOString(), correlationId: id, causationId: id },
  };
}

/** One event per append, each with the stream's exact expected revision, as commands do. */
async function writer(store: PostgresEventStore, name: string, appends: number, streams: number): Promise<void> {
  const revisions = new Map<string, bigint>();
  for (let i = 0; i < appends; i++) {
    const stream = `map-bench-${name}-${i % streams}`;
    const expected = revisions.get(stream) ?? 'no_stream';
    const result = await store.append(stream, [event()], expected);
    revisions.set(stream, result.nextRevision);
  }
}

export async function benchAppends(db: Database, print: (line: string) => void): Promise<void> {
  const store = await PostgresEventStore.open(db);
  try {
    await writer(store, 'warmup', 200, 10);
    for (const writers of [1, 8]) {
      const perWriter = db.kind === 'pglite' ? 1000 : 2000;
      const started = performance.now();
      await Promise.all(Array.from({ length: writers }, (_, w) => writer(store, `w${writers}-${w}`, perWriter, 50)));
      const seconds = (performance.now() - started) / 1000;
      print(`append, ${writers} writer${writers > 1 ? 's' : ' '}: ${Math.round((writers * perWriter) / seconds).toLocaleString('en')} events/s (${writers * perWriter} appends)`);
    }
  } finally {
    await store.close();
  }
}
