/**
 * The event store port. Two adapters fit it: PostgreSQL (PGlite or a server, the embedded
 * default) and KurrentDB/EventStoreDB (production). Its semantics follow KurrentDB's:
 * zero-based bigint stream revisions, `{commit, prepare}` log positions, exclusive start
 * positions, and expected-revision checks on append.
 */
import type { EventMetadata } from '../events/metadata.js';
import type { Position } from '../events/position.js';

/** What an append expects the stream to be at: a revision, or one of the three states. */
export type ExpectedRevision = bigint | 'no_stream' | 'stream_exists' | 'any';

export interface NewEvent {
  /** A UUID chosen by the writer; appending the same id again does not duplicate the event. */
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export interface RecordedEvent {
  id: string;
  stream: string;
  /** Zero-based position of the event in its stream. */
  revision: bigint;
  /** Position of the event in the global log. */
  position: Position;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the last event appended (the stream's revision after the append). */
  nextRevision: bigint;
  /** Global position of the last event appended. */
  position: Position;
}

export interface ReadStreamOptions {
  /** First revision to read (inclusive); default 0. */
  fromRevision?: bigint;
  maxCount?: number;
}

export interface AllFilter {
  /** Only events of streams whose names start with one of these. */
  streamPrefixes?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive: read the events after this position; default the start of the log. */
  after?: Position;
  maxCount?: number;
  /**
   * Stop once the events read hold about this many bytes of data (as the store keeps it); the
   * first event always comes. Stores that cannot tell ignore it.
   */
  maxBytes?: number;
  filter?: AllFilter;
}

export interface SubscribeToAllOptions {
  /** Exclusive start position. */
  after?: Position;
  filter?: AllFilter;
  /** Most events handed to one `onEvents` call. */
  batchSize?: number;
  /** Most data (bytes, as the store keeps it) handed to one `onEvents` call, one event at least; a store's default otherwise. */
  maxBatchBytes?: number;
}

export interface AllSubscriber {
  /**
   * Receives events in log order, in batches. The next batch waits until this one's promise
   * settles (back-pressure); a rejection ends the subscription and goes to `onError`.
   */
  onEvents(events: RecordedEvent[]): Promise<void>;
  onError?(error: unknown): void;
}

export interface Subscription {
  /** Stops the subscription; resolves once no `onEvents` call is running. */
  stop(): Promise<void>;
}

export interface EventStore {
  append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /** The stream's events in revision order; empty when the stream does not exist. */
  readStream(stream: string, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options: SubscribeToAllOptions, subscriber: AllSubscriber): Subscription;
  /**
   * Tells `listener` the streams that have new events as soon as the store knows (this
   * process's appends at once, other processes' through the database's notices); the returned
   * function stops telling. A hint for a reader that reads those streams itself: notices can be
   * lost, so it follows the log too. Stores that cannot tell lack it.
   */
  onStreamsAppended?(listener: (streams: readonly string[]) => void): () => void;
  close(): Promise<void>;
}

/** The append's expected revision did not match the stream. Retrying with fresh state may work. */
export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    readonly actual: bigint | 'no_stream',
  ) {
    super(`Stream ${stream} is at ${String(actual)}, expected ${String(expected)}.`);
    this.name = 'WrongExpectedRevisionError';
  }
}

/** The append was malformed (bad event id, bad metadata): a programming error, not a conflict. */
export class InvalidAppendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAppendError';
  }
}

/**
 * The store with every event it hands out passed through `upcast` first (events/upcasters.ts):
 * on `readStream`, `readAll` and `subscribeToAll`, so every reader (projections, deciders, the
 * live hub, history) reads old events as today's schemas take them, and none needs to know.
 * Appends pass through untouched: what is recorded stays as it was written.
 */
export function withUpcasting(store: EventStore, upcast: (event: RecordedEvent) => RecordedEvent): EventStore {
  const upcastAll = (events: RecordedEvent[]) => {
    let copy: RecordedEvent[] | null = null;
    events.forEach((event, index) => {
      const read = upcast(event);
      if (read !== event) (copy ??= events.slice())[index] = read;
    });
    return copy ?? events;
  };
  return {
    append: (stream, events, expectedRevision) => store.append(stream, events, expectedRevision),
    readStream: async (stream, options) => upcastAll(await store.readStream(stream, options)),
    readAll: async (options) => upcastAll(await store.readAll(options)),
    subscribeToAll: (options, subscriber) =>
      store.subscribeToAll(options, {
        onEvents: (events) => subscriber.onEvents(upcastAll(events)),
        ...(subscriber.onError ? { onError: (error: unknown) => subscriber.onError!(error) } : {}),
      }),
    ...(store.onStreamsAppended ? { onStreamsAppended: (listener: (streams: readonly string[]) => void) => store.onStreamsAppended!(listener) } : {}),
    close: () => store.close(),
  };
}
