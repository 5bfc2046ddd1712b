/**
 * The map at revision N on a long stream (issue 8): one map with 50,000 events (a mall of 200
 * locations, then moves, renames and versions), then the median time to read the map at a
 * random revision through `MapHistory` (snapshots every 250 events). The first read of a fresh
 * stream folds it all and keeps the snapshots; it is printed apart ("cold").
 */
import { randomUUID } from 'node:crypto';
import type { Database } from '../ports/database.js';
import type { NewEvent } from '../ports/event-store.js';
import { PostgresEventStore } from '../server/event-store/postgres-event-store.js';
import { MapHistory } from '../server/history/map-history.js';
import { emptyMapDocument } from '../events/map-document.js';

const TOTAL = 50_000;
const LOCATIONS = 200;
const READS = 60;

function event(type: string, data: unknown): NewEvent {
  const id = randomUUID();
  return { id, type, data, metadata: { userId: 'bench-user', userName: 'Bench', at: new Date().toISOString(), correlationId: id, causationId: id } };
}

export async function benchHistoryAtRevision(db: Database, print: (line: string) => void): Promise<void> {
  const store = await PostgresEventStore.open(db);
  try {
    const mapId = 'history-bench';
    const at = new Date().toISOString();
    const events: NewEvent[] = [event('MapCreated', { mapId, uid: 'bench-user', author: 'bench-user', title: 'Long history', state: 0, document: emptyMapDocument(), created: at })];
    for (let i = 0; i < LOCATIONS; i++) {
      events.push(event('LocationAdded', { mapId, edited: at, location: { id: `l${i}`, title: `Shop ${i}`, layer: 'ground', position: { x: i * 5, y: i * 3 } } }));
    }
    for (let i = events.length; i < TOTAL; i++) {
      const id = `l${i % LOCATIONS}`;
      if (i % 1000 === 0) events.push(event('VersionSaved', { mapId, historyId: `v${i}`, revision: String(i - 1), created: at, author: 'bench-user', auto: true }));
      else if (i % 3 === 0) events.push(event('LocationUpdated', { mapId, edited: at, id, changes: { title: `Shop ${i}` } }));
      else events.push(event('LocationMoved', { mapId, edited: at, id, position: { x: i % 997, y: i % 601 } }));
    }
    for (let i = 0; i < events.length; i += 1000) await store.append(`map-${mapId}`, events.slice(i, i + 1000), i === 0 ? 'no_stream' : BigInt(i - 1));
    const history = await MapHistory.open(db, store);

    const coldStarted = performance.now();
    await history.stateAt(mapId, BigInt(TOTAL - 1));
    const cold = performance.now() - coldStarted;

    const times: number[] = [];
    for (let i = 0; i < READS; i++) {
      const revision = BigInt(Math.floor(Math.random() * TOTAL));
      const started = performance.now();
      const { state } = await history.stateAt(mapId, revision);
      times.push(performance.now() - started);
      if (state.status !== 'active') throw new Error('the map should exist at every revision');
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    const p95 = times[Math.floor(times.length * 0.95)]!;
    print(
      `map at revision N, ${TOTAL.toLocaleString('en')}-event stream: median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (${READS} random revisions; aim under 100 ms); first read of a fresh stream ${Math.round(cold)} ms`,
    );
  } finally {
    await store.close();
  }
}
