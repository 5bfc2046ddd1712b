/**
 * A one-field edit in the map data read model (issue 26, item 5): maps of 100, 5,000 and 25,000
 * locations, each with a path network of as many points and links, and three one-field edits: a
 * location's title (LocationUpdated), one path point moved (PathsEdited) and a floor renamed
 * (LayerRenamed). Per edit, the time the projection takes to apply it (its transaction, commit
 * included) and the bytes it sends the database (the SQL parameters: what it writes, whatever
 * the database then does with it). Medians, and the ratio of the biggest map to the smallest:
 * an edit's cost should not grow with the map.
 *
 * The projection is called as the runner calls it (one batch, in a transaction), in the same
 * process that wrote the map's rows before, as a running server does.
 */
import { randomUUID } from 'node:crypto';
import { emptyMapDocument, Layer, Location, type MapDocument } from '../events/map-document.js';
import type { MapEdit } from '../events/map-edits.js';
import { streams } from '../events/streams.js';
import { mapDataProjection } from '../projections/map-data.js';
import { ChangedTopics } from '../projections/projection.js';
import type { Database, Queryable } from '../ports/database.js';
import type { NewEvent, RecordedEvent } from '../ports/event-store.js';
import { PostgresEventStore } from '../server/event-store/postgres-event-store.js';
import { median } from './stats.js';

const SIZES = [100, 5_000, 25_000];
const WARM_UP = 5;
const EDITS = 40;

function event(type: string, data: unknown): NewEvent {
  const id = randomUUID();
  return { id, type, data, metadata: { userId: 'bench-user', at: new Date().toISOString(), correlationId: id, causationId: id } };
}

/** `size` shops on one floor, and a walkway network of `size` points joined in a line. */
function mapOf(size: number): MapDocument {
  const document = emptyMapDocument();
  const layer = Layer.parse({ id: 'ground', name: 'Ground floor' });
  const locations = Array.from({ length: size }, (_, i) =>
    Location.parse({ id: `shop-${i}`, title: `Shop ${i}`, layer: 'ground', position: { x: 20 + (i % 100) * 11, y: 20 + Math.floor(i / 100) * 7 }, description: `<p>Shop ${i}.</p>` }),
  );
  const nodes = Array.from({ length: size }, (_, i) => ({ id: `n${i}`, layer: 'ground', x: 20 + (i % 100) * 11, y: 24 + Math.floor(i / 100) * 7 }));
  const edges = nodes.slice(1).map((node, i) => ({ id: `e${i}`, from: `n${i}`, to: node.id, stepFree: true, oneWay: false }));
  return { ...document, layers: [layer], locations, paths: { nodes, edges, connectors: [] } };
}

/** The one-field edits measured, the `i`th of each kind. */
const EDIT_KINDS: Array<{ label: string; edit: (size: number, i: number) => MapEdit }> = [
  { label: "a location's title", edit: (size, i) => ({ type: 'LocationUpdated', id: `shop-${Math.floor(size / 2)}`, changes: { title: `Shop edit ${i}` } }) },
  {
    label: 'one path point moved',
    edit: (size, i) => ({ type: 'PathsEdited', put: { nodes: [{ id: `n${Math.floor(size / 2)}`, layer: 'ground', x: 100 + i, y: 50 }], edges: [], connectors: [] }, removed: { nodes: [], edges: [], connectors: [] } }),
  },
  { label: 'a floor renamed', edit: (_size, i) => ({ type: 'LayerRenamed', id: 'ground', name: `Ground floor ${i}` }) },
];

/** Counts the bytes of the parameters of every statement sent through it. */
function counting(tx: Queryable, total: { bytes: number }): Queryable {
  const size = (value: unknown): number => {
    if (value === null || value === undefined) return 0;
    if (typeof value === 'string') return Buffer.byteLength(value);
    if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value).length;
    return Buffer.byteLength(JSON.stringify(value));
  };
  return {
    query: (text: string, params?: unknown[]) => {
      for (const param of params ?? []) total.bytes += size(param);
      return tx.query(text, params);
    },
  } as Queryable;
}

async function applyOne(db: Database, recorded: RecordedEvent): Promise<{ ms: number; bytes: number }> {
  const total = { bytes: 0 };
  const started = performance.now();
  await db.transaction((tx) => mapDataProjection.apply(counting(tx, total), [recorded], new ChangedTopics()));
  return { ms: performance.now() - started, bytes: total.bytes };
}

export async function benchMapDataEdit(db: Database, print: (line: string) => void): Promise<void> {
  const store = await PostgresEventStore.open(db);
  await db.exec(mapDataProjection.schema);
  try {
    const figures = new Map<string, Array<{ size: number; ms: number; bytes: number }>>();
    for (const size of SIZES) {
      const mapId = `edit-bench-${size}-${randomUUID().slice(0, 8)}`;
      const stream = streams.map(mapId);
      const created = event('MapCreated', { mapId, uid: 'bench-user', author: 'bench-user', title: `Edit bench ${size}`, state: 0, document: mapOf(size), created: new Date().toISOString() });
      await store.append(stream, [created], 'no_stream');
      let revision = 0n;
      const [first] = await store.readStream(stream, { fromRevision: 0n, maxCount: 1 });
      await applyOne(db, first!);
      for (const kind of EDIT_KINDS) {
        const times: number[] = [];
        const bytes: number[] = [];
        for (let i = 0; i < WARM_UP + EDITS; i++) {
          const { type, ...fields } = kind.edit(size, i);
          await store.append(stream, [event(type, { ...fields, mapId, edited: new Date().toISOString() })], revision);
          revision += 1n;
          const [recorded] = await store.readStream(stream, { fromRevision: revision, maxCount: 1 });
          const measured = await applyOne(db, recorded!);
          if (i < WARM_UP) continue;
          times.push(measured.ms);
          bytes.push(measured.bytes);
        }
        const row = { size, ms: median(times), bytes: median(bytes) };
        figures.set(kind.label, [...(figures.get(kind.label) ?? []), row]);
        print(`map_data, ${kind.label}, ${size.toLocaleString('en')} locations: projection median ${row.ms.toFixed(2)} ms, ${row.bytes.toLocaleString('en')} bytes written`);
      }
    }
    for (const [label, rows] of figures) {
      const small = rows[0]!;
      const big = rows.at(-1)!;
      print(
        `map_data, ${label}: ${big.size.toLocaleString('en')} against ${small.size.toLocaleString('en')} locations: time ×${(big.ms / small.ms).toFixed(2)}, bytes ×${(big.bytes / small.bytes).toFixed(2)}`,
      );
    }
  } finally {
    await store.close();
  }
}
