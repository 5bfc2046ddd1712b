import { MAP_EVENT_TYPES, MapEvent } from '../events/map.js';
import type { RecordedEvent } from '../ports/event-store.js';

/** The map events of a batch, validated against the event schemas as they leave the store. */
export function mapEventsOf(events: readonly RecordedEvent[]): Array<{ recorded: RecordedEvent; event: MapEvent }> {
  const result: Array<{ recorded: RecordedEvent; event: MapEvent }> = [];
  for (const recorded of events) {
    if (!MAP_EVENT_TYPES.has(recorded.type)) continue;
    result.push({ recorded, event: MapEvent.parse({ type: recorded.type, data: recorded.data }) });
  }
  return result;
}

export function isoString(value: Date | string): string {
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString();
}
