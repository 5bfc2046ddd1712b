/**
 * Reading the log as the product's readers do: every recorded event parsed with the schema of
 * its stream's aggregate (the one the projections and the aggregate's own fold use) and its
 * metadata with the metadata schema; a map's stream folded with the map's own `evolve`
 * (events/map.ts, which applies edits with events/map-edits.ts).
 */
import type { z } from 'zod';
import { CUSTOMER_EVENT_TYPES, CustomerEvent } from '../../../events/customer.js';
import { LicenceEvent } from '../../../events/licence.js';
import { evolveMapComments, initialMapCommentsState, MAP_COMMENT_EVENT_TYPES, MapCommentEvent, type MapCommentsState } from '../../../events/map-comments.js';
import { evolveMap, initialMapState, MAP_EVENT_TYPES, MapEvent, type MapAggregate } from '../../../events/map.js';
import { EventMetadata } from '../../../events/metadata.js';
import { streams } from '../../../events/streams.js';
import { StripeCustomerEvent } from '../../../events/stripe-customer.js';
import type { EventStore, RecordedEvent } from '../../../ports/event-store.js';

interface Reader {
  name: string;
  /** The schema the aggregate's readers (its fold, the projections) parse its events with. */
  schema: z.ZodType;
  eventTypes: ReadonlySet<string>;
}

const typesOf = (schema: { options: ReadonlyArray<{ shape: { type: { value: string } } }> }) => new Set(schema.options.map((option) => option.shape.type.value));

/**
 * Every aggregate's reader, by the prefix of its streams (its stream name of the empty key).
 * The events' union schemas, which the deciders' recorded-event schemas are (issue 26 item 1).
 */
const READERS: ReadonlyArray<{ prefix: string; reader: Reader }> = [
  { prefix: streams.map(''), reader: { name: 'map', schema: MapEvent, eventTypes: MAP_EVENT_TYPES } },
  { prefix: streams.mapComments(''), reader: { name: 'map-comments', schema: MapCommentEvent, eventTypes: MAP_COMMENT_EVENT_TYPES } },
  { prefix: streams.customer(''), reader: { name: 'customer', schema: CustomerEvent, eventTypes: CUSTOMER_EVENT_TYPES } },
  { prefix: streams.licence(''), reader: { name: 'licence', schema: LicenceEvent, eventTypes: new Set([LicenceEvent.shape.type.value]) } },
  { prefix: streams.stripeCustomer(''), reader: { name: 'stripe-customer', schema: StripeCustomerEvent, eventTypes: typesOf(StripeCustomerEvent) } },
  // The longest prefix first: `map-comments-` streams are not the map's.
].sort((a, b) => b.prefix.length - a.prefix.length);

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

/** A map's aggregate as its events make it, each parsed with the map's event schema and folded with its `evolve`. */
export async function foldMap(store: EventStore, mapId: string): Promise<MapAggregate> {
  let state = initialMapState;
  for (const recorded of await store.readStream(streams.map(mapId))) {
    if (!MAP_EVENT_TYPES.has(recorded.type)) continue;
    state = evolveMap(state, MapEvent.parse({ type: recorded.type, data: recorded.data }));
  }
  return state;
}

/** A map's comments as their events make them (events/map-comments.ts). */
export async function foldComments(store: EventStore, mapId: string): Promise<MapCommentsState> {
  let state = initialMapCommentsState;
  for (const recorded of await store.readStream(streams.mapComments(mapId))) {
    state = evolveMapComments(state, MapCommentEvent.parse({ type: recorded.type, data: recorded.data }));
  }
  return state;
}
