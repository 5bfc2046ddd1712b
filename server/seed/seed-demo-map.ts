/**
 * Seeds the demo map (id `demo`, state 2) on first start. Idempotent across restarts and
 * processes: its stream is created with expected revision "no stream", so only one start
 * ever records it.
 */
import { MapState } from '../../events/map-states.js';
import type { Position } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import type { Clock, IdGenerator } from '../clock.js';
import { WrongExpectedRevisionError, type EventStore } from '../event-store/event-store.js';
import { demoMallDocument } from './demo-mall.js';

export const DEMO_MAP_ID = 'demo';
/** The demo map belongs to the product itself, not to any user. */
export const SYSTEM_UID = 'mapfold';

/** Records the demo map unless it exists; answers the position of its event, or null. */
export async function seedDemoMap(store: EventStore, clock: Clock, ids: IdGenerator): Promise<Position | null> {
  const id = ids.uuid();
  try {
    const result = await store.append(
      streams.map(DEMO_MAP_ID),
      [
        {
          id,
          type: 'MapCreated',
          data: {
            mapId: DEMO_MAP_ID,
            uid: SYSTEM_UID,
            author: SYSTEM_UID,
            title: 'Riverside Mall (demo)',
            state: MapState.demo,
            document: demoMallDocument(),
            created: clock.now().toISOString(),
          },
          metadata: { userId: null, at: clock.now().toISOString(), correlationId: id, causationId: 'seed-demo-map' },
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
