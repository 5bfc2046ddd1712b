import { randomUUID } from 'node:crypto';
import { allProjections } from '../projections/index.js';
import { ProjectionRunner } from '../projections/runner.js';
import type { Database } from '../ports/database.js';
import type { NewEvent } from '../ports/event-store.js';
import { PostgresEventStore } from '../server/event-store/postgres-event-store.js';

const TOTAL = 100_000;
const MAPS = 1_000;

function event(type: string, data: unknown): NewEvent {
  const id = randomUUID();
  return { id, type, data, metadata: { userId: 'bench-user', at: new Date().toISOString(), correlationId: id, causationId: id } };
}

/** 1,000 maps, each created and then saved 99 times (a title, and every tenth time its document). */
export async function benchCatchUp(db: Database, print: (line: string) => void): Promise<void> {
  const store = await PostgresEventStore.open(db);
  try {
    const document = { version: 1, layers: [{ id: 'g', name: 'Ground' }], locations: Array.from({ length: 20 }, (_, i) => ({ id: `l${i}`, title: `Shop ${i}` })) };
    const perMap = TOTAL / MAPS;
    for (let m = 0; m < MAPS; m++) {
      const mapId = `bench${m}`;
      const at = new Date().toISOString();
      const events = [event('MapCreated', { mapId, uid: `owner${m % 50}`, author: `owner${m % 50}`, title: `Map ${m}`, state: 0, document, created: at })];
      for (let i = 1; i < perMap; i++) {
        events.push(event('MapSaved', i % 10 === 0 ? { mapId, title: `Map ${m} v${i}`, document, edited: at } : { mapId, title: `Map ${m} v${i}`, edited: at }));
      }
      await store.append(`map-${mapId}`, events, 'no_stream');
    }
    const runner = new ProjectionRunner(db, store, allProjections);
    const started = performance.now();
    await runner.catchUp(1000);
    const seconds = (performance.now() - started) / 1000;
    print(
      `projection catch-up: ${Math.round(TOTAL / seconds).toLocaleString('en')} events/s (${TOTAL.toLocaleString('en')} events into ${allProjections.length} read models in ${seconds.toFixed(1)} s)`,
    );
  } finally {
    await store.close();
  }
}
