/**
 * Seeds the case studies' example maps (state 2, owned by the product) on first start: the
 * real-estate site plan and the geographic service-territory map. The retail case study shows
 * the demo mall (seed-demo-map.ts). Idempotent like the demo: each stream is created with
 * expected revision "no stream", and the SVGs are stored content-addressed, so a second start
 * (or a second process) changes nothing.
 *
 * A map already recorded whose drawing this process's file store holds is left alone without
 * drawing its SVG again: a start then sanitises nothing. When a drawing must be stored (the
 * first start, or a process with a file store of its own beside a shared database), it is
 * sanitised in a worker thread that ends with the seeding, so the server does not keep jsdom
 * loaded for two files it checked once.
 */
import { z } from 'zod';
import type { LayerFile, MapDocument } from '../../events/map-document.js';
import { MapState } from '../../events/map-states.js';
import type { Position } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import type { Clock, IdGenerator } from '../clock.js';
import type { EventStore } from '../../ports/event-store.js';
import { mapDecider, type MapEvent } from '../../events/map.js';
import { handleCommand } from '../commands/command-handler.js';
import { contentId, isFileId, type FileStore } from '../files/file-store.js';
import { WorkerSvgSanitizer, type SvgSanitizer } from '../files/svg-sanitizer-pool.js';
import { GEOGRAPHIC_MAP_ID, GEOGRAPHIC_TITLE, geographicDocument, geographicMap } from './example-geographic.js';
import { REAL_ESTATE_MAP_ID, REAL_ESTATE_TITLE, realEstateDocument, realEstateSitePlanSvg } from './example-real-estate.js';
import { DEMO_MAP_ID, SYSTEM_UID } from './seed-demo-map.js';

/** The map each case study shows, by its path's last segment. */
export const EXAMPLE_MAP_IDS = {
  'real-estate': REAL_ESTATE_MAP_ID,
  retail: DEMO_MAP_ID,
  geographic: GEOGRAPHIC_MAP_ID,
} as const;

export interface ExampleMapServices {
  store: EventStore;
  clock: Clock;
  ids: IdGenerator;
  files: FileStore;
  /** Sanitises the drawings to store; by default a worker thread started when one is needed and ended after. */
  svgSanitizer?: SvgSanitizer;
}

interface Example {
  id: string;
  title: string;
  svg: () => string;
  document: (file: LayerFile) => MapDocument;
}

const EXAMPLES: Example[] = [
  { id: REAL_ESTATE_MAP_ID, title: REAL_ESTATE_TITLE, svg: realEstateSitePlanSvg, document: realEstateDocument },
  { id: GEOGRAPHIC_MAP_ID, title: GEOGRAPHIC_TITLE, svg: () => geographicMap().svg, document: geographicDocument },
];

/** Stores an SVG the way built-in maps are stored: sanitised, content-addressed, owned by no one. */
async function storeSvg(files: FileStore, sanitizer: SvgSanitizer, source: string): Promise<LayerFile> {
  const { svg, width, height } = await sanitizer.sanitize(source);
  const bytes = new TextEncoder().encode(svg);
  const record = await files.put(bytes, { id: contentId(bytes), owner: null, kind: 'svg', contentType: 'image/svg+xml', width, height });
  return { kind: 'svg', url: record.url, width: record.width, height: record.height };
}

/** The part of a recorded MapCreated this module reads: its first floor's drawing. */
const RecordedDrawing = z.object({ document: z.object({ layers: z.array(z.object({ file: z.object({ url: z.string() }).nullish() })).min(1) }) });

/** Whether the example's map is recorded and the drawing it was created with is in this process's file store. */
async function alreadySeeded({ store, files }: ExampleMapServices, example: Example): Promise<boolean> {
  const [created] = await store.readStream(streams.map(example.id), { maxCount: 1 });
  if (!created) return false;
  const parsed = RecordedDrawing.safeParse(created.data);
  const id = parsed.success ? parsed.data.document.layers[0]!.file?.url.replace(/^\/files\//, '') : undefined;
  return id !== undefined && isFileId(id) && (await files.stat(id)) !== null;
}

async function seedExample(services: ExampleMapServices, sanitizer: () => SvgSanitizer, example: Example): Promise<Position | null> {
  const { store, clock, ids, files } = services;
  if (await alreadySeeded(services, example)) return null;
  // The file first: a map is never recorded pointing at a file that is not there.
  const file = await storeSvg(files, sanitizer(), example.svg());
  const meta = { principal: null, now: clock.now(), correlationId: ids.uuid(), commandId: 'seed-example-maps' };
  const data = { mapId: example.id, uid: SYSTEM_UID, author: SYSTEM_UID, title: example.title, state: MapState.demo, document: example.document(file), created: meta.now.toISOString() };
  // Recorded once: another start (or process) that recorded it first leaves nothing to do.
  const outcome = await handleCommand({ store, ids }, mapDecider, example.id, (state): MapEvent[] => (state.status === 'absent' ? [{ type: 'MapCreated', data }] : []), meta);
  return outcome.position;
}

/** Records each example map unless it exists; answers the positions of the events recorded (empty when none were). */
export async function seedExampleMaps(services: ExampleMapServices): Promise<Position[]> {
  const own: { pool: SvgSanitizer | null } = { pool: null };
  const sanitizer = () => services.svgSanitizer ?? (own.pool ??= new WorkerSvgSanitizer());
  const positions: Position[] = [];
  try {
    for (const example of EXAMPLES) {
      const position = await seedExample(services, sanitizer, example);
      if (position) positions.push(position);
    }
  } finally {
    await own.pool?.close();
  }
  return positions;
}
