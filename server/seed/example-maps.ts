/**
 * Seeds the case studies' example maps (state 2, owned by the product) on first start: the
 * real-estate site plan and the geographic service-territory map. The retail case study shows
 * the demo mall (seed-demo-map.ts). Idempotent like the demo: each stream is created with
 * expected revision "no stream", and the SVGs are stored content-addressed, so a second start
 * (or a second process) changes nothing.
 */
import type { LayerFile, MapDocument } from '../../events/map-document.js';
import { MapState } from '../../events/map-states.js';
import type { Position } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import type { Clock, IdGenerator } from '../clock.js';
import { WrongExpectedRevisionError, type EventStore } from '../event-store/event-store.js';
import { contentId, type FileStore } from '../files/file-store.js';
import { sanitizeSvg } from '../files/sanitize-svg.js';
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
async function storeSvg(files: FileStore, source: string): Promise<LayerFile> {
  const { svg, width, height } = sanitizeSvg(source);
  const bytes = new TextEncoder().encode(svg);
  const record = await files.put(bytes, { id: contentId(bytes), owner: null, kind: 'svg', contentType: 'image/svg+xml', width, height });
  return { kind: 'svg', url: record.url, width: record.width, height: record.height };
}

async function seedExample({ store, clock, ids, files }: ExampleMapServices, example: Example): Promise<Position | null> {
  // The file first: a map is never recorded pointing at a file that is not there.
  const file = await storeSvg(files, example.svg());
  const eventId = ids.uuid();
  const at = clock.now().toISOString();
  try {
    const result = await store.append(
      streams.map(example.id),
      [
        {
          id: eventId,
          type: 'MapCreated',
          data: {
            mapId: example.id,
            uid: SYSTEM_UID,
            author: SYSTEM_UID,
            title: example.title,
            state: MapState.demo,
            document: example.document(file),
            created: at,
          },
          metadata: { userId: null, at, correlationId: eventId, causationId: 'seed-example-maps' },
        },
      ],
      'no_stream',
    );
    return result.position;
  } catch (error) {
    if (error instanceof WrongExpectedRevisionError) return null;
    throw error;
  }
}

/** Records each example map unless it exists; answers the positions of the events recorded (empty when none were). */
export async function seedExampleMaps(services: ExampleMapServices): Promise<Position[]> {
  const positions: Position[] = [];
  for (const example of EXAMPLES) {
    const position = await seedExample(services, example);
    if (position) positions.push(position);
  }
  return positions;
}
