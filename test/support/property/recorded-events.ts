/**
 * Reading the log as the product's readers do: every recorded event parsed with its aggregate's
 * recorded-event schema (the decider's `schema`, which the projections, the fold and the append
 * path use) and its metadata with the metadata schema; a map's stream folded with the map's own `evolve`
 * (events/map.ts, which applies edits with events/map-edits.ts).
 */
import { contactDecider } from '../../../events/contact.js';
import { customerDecider } from '../../../events/customer.js';
import type { DomainEvent, EventSourced } from '../../../events/decider.js';
import { licenceDecider } from '../../../events/licence.js';
import { mapCommentsDecider, type MapCommentEvent, type MapCommentsState } from '../../../events/map-comments.js';
import { mapDecider, type MapAggregate, type MapEvent } from '../../../events/map.js';
import { EventMetadata } from '../../../events/metadata.js';
import { stripeCustomerDecider } from '../../../events/stripe-customer.js';
import { stripeEventDecider } from '../../../events/stripe-event.js';
import type { EventStore, RecordedEvent } from '../../../ports/event-store.js';

type Reader = EventSourced<DomainEvent, unknown>;

/** Every aggregate's decider, by the prefix of its streams (its stream id of the empty key). */
const READERS: ReadonlyArray<{ prefix: string; reader: Reader }> = (
  [mapDecider, mapCommentsDecider, customerDecider, licenceDecider, contactDecider, stripeEventDecider, stripeCustomerDecider] as unknown as Reader[]
)
  .map((reader) => ({ prefix: reader.streamId(''), reader }))
  // The longest prefix first: `map-comments-` streams are not the map's.
  .sort((a, b) => b.prefix.length - a.prefix.length);

/** The aggregate whose stream this is, or null when none reads it. */
export function readerOf(stream: string): Reader | null {
  return READERS.find((entry) => stream.startsWith(entry.prefix))?.reader ?? null;
}

/** What is wrong with reading one recorded event as its readers do ("where: problem"), or null. */
export function unreadable(event: RecordedEvent): string | null {
  const where = `${event.stream}@${event.revision} ${event.type}`;
  const metadata = EventMetadata.safeParse(event.metadata);
  if (!metadata.success) return `${where}: metadata ${metadata.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
  const reader = readerOf(event.stream);
  if (!reader) return `${where}: no aggregate reads this stream`;
  if (!reader.eventTypes.has(event.type)) return `${where}: not an event type of ${reader.name}`;
  const parsed = reader.schema.safeParse({ type: event.type, data: event.data });
  if (parsed.success) return null;
  return `${where}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
}

/** Every event of the log, oldest first. */
export async function readWholeLog(store: EventStore): Promise<RecordedEvent[]> {
  const events: RecordedEvent[] = [];
  for (;;) {
    const page = await store.readAll({ ...(events.length > 0 ? { after: events[events.length - 1]!.position } : {}), maxCount: 1000 });
    events.push(...page);
    if (page.length < 1000) return events;
  }
}

/** A map's aggregate as its events make it, each parsed with the map's recorded-event schema and folded with its `evolve`. */
export async function foldMap(store: EventStore, mapId: string): Promise<MapAggregate> {
  let state = mapDecider.initialState;
  for (const recorded of await store.readStream(mapDecider.streamId(mapId))) {
    if (!mapDecider.eventTypes.has(recorded.type)) continue;
    state = mapDecider.evolve(state, mapDecider.schema.parse({ type: recorded.type, data: recorded.data }) as MapEvent);
  }
  return state;
}

/** A map's comments as their events make them (events/map-comments.ts). */
export async function foldComments(store: EventStore, mapId: string): Promise<MapCommentsState> {
  let state = mapCommentsDecider.initialState;
  for (const recorded of await store.readStream(mapCommentsDecider.streamId(mapId))) {
    state = mapCommentsDecider.evolve(state, mapCommentsDecider.schema.parse({ type: recorded.type, data: recorded.data }) as MapCommentEvent);
  }
  return state;
}
