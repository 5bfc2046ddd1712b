import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../ports/event-store.js';

/** A well-formed event for store tests. */
export function newEvent(type = 'Something', data: unknown = {}, userId: string | null = 'user-1'): NewEvent {
  const id = randomUUID();
  return {
    id,
    type,
    data,
    metadata: { userId, at: new Date().toISOString(), correlationId: id, causationId: id },
  };
}
