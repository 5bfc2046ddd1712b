/**
 * What a map's stream holds, read straight from the event store: each recorded event parsed
 * with the schema every reader uses (events/map.ts MapEvent). A test of "nothing is recorded
 * that its readers refuse" asserts the list of refusals is empty, whatever the projections did.
 */
import { MapEvent } from '../../events/map.js';
import { streams } from '../../events/streams.js';
import type { TestServer } from './test-server.js';

export interface Refusal {
  revision: number;
  type: string;
  issues: string[];
}

/** The events of map `mapId` its readers refuse, with the paths and messages of their issues. */
export async function refusedMapEvents(server: TestServer, mapId: string): Promise<Refusal[]> {
  const recorded = await server.services.store.readStream(streams.map(mapId));
  const refusals: Refusal[] = [];
  for (const event of recorded) {
    const parsed = MapEvent.safeParse({ type: event.type, data: event.data });
    if (!parsed.success) {
      refusals.push({ revision: Number(event.revision), type: event.type, issues: parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.join('.')}: ${issue.message}`) });
    }
  }
  return refusals;
}

