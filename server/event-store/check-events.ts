/**
 * The checks every adapter runs before an append reaches its store: a malformed append is a
 * programming error ({@link InvalidAppendError}), never a conflict, whichever store is behind
 * the port.
 */
import { EventMetadata } from '../../events/metadata.js';
import { InvalidAppendError, type NewEvent } from '../../ports/event-store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkEvents(events: readonly NewEvent[]): void {
  if (events.length === 0) throw new InvalidAppendError('Nothing to append.');
  const ids = new Set<string>();
  for (const event of events) {
    if (!UUID.test(event.id)) throw new InvalidAppendError(`Event id is not a UUID: ${event.id}`);
    if (ids.has(event.id)) throw new InvalidAppendError(`Event id appears twice: ${event.id}`);
    ids.add(event.id);
    if (!event.type) throw new InvalidAppendError('Event type is empty.');
    const metadata = EventMetadata.safeParse(event.metadata);
    if (!metadata.success) throw new InvalidAppendError(`Event metadata is incomplete: ${metadata.error.message}`);
  }
}
