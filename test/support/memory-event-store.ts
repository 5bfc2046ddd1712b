/**
 * An event store in memory, for property tests that replay thousands of webhook deliveries in
 * seconds. It keeps the rules deciders rely on, as the real adapters do (test/contract):
 * zero-based revisions, expected-revision checks on append, events copied in and out as a
 * database would. It has no subscriptions: tests call the reactor themselves.
 */
import { START, type Position } from '../../events/position.js';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type Subscription,
} from '../../ports/event-store.js';

export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<string, RecordedEvent[]>();
  private readonly log: RecordedEvent[] = [];

  async append(stream: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    const recorded = this.streams.get(stream) ?? [];
    const current = recorded.length > 0 ? BigInt(recorded.length - 1) : null;
    const matches =
      expected === 'any' ||
      (expected === 'no_stream' && current === null) ||
      (expected === 'stream_exists' && current !== null) ||
      (typeof expected === 'bigint' && current === expected);
    if (!matches) throw new WrongExpectedRevisionError(stream, expected, current ?? 'no_stream');
    let position: Position = START;
    for (const event of events) {
      position = { commit: BigInt(this.log.length), prepare: BigInt(this.log.length) };
      const record: RecordedEvent = {
        id: event.id,
        stream,
        revision: BigInt(recorded.length),
        position,
        type: event.type,
        data: structuredClone(event.data),
        metadata: structuredClone(event.metadata),
        recordedAt: new Date(),
      };
      recorded.push(record);
      this.log.push(record);
    }
    this.streams.set(stream, recorded);
    return { nextRevision: BigInt(recorded.length - 1), position };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const from = Number(options.fromRevision ?? 0n);
    const events = (this.streams.get(stream) ?? []).slice(from, options.maxCount === undefined ? undefined : from + options.maxCount);
    return structuredClone(events);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ? Number(options.after.commit) : -1;
    const prefixes = options.filter?.streamPrefixes;
    const events = this.log.filter((event, index) => index > after && (!prefixes?.length || prefixes.some((prefix) => event.stream.startsWith(prefix))));
    return structuredClone(events.slice(0, options.maxCount));
  }

  subscribeToAll(): Subscription {
    throw new Error('The memory event store has no subscriptions: call the handler yourself.');
  }

  async close(): Promise<void> {}
}
