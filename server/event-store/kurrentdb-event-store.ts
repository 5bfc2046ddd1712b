/**
 * The event store on KurrentDB (EventStoreDB's successor), through `@kurrent/kurrentdb-client`.
 *
 * The port was cut to KurrentDB's semantics, so the mapping is thin: stream revisions and
 * `{commit, prepare}` positions are KurrentDB's own, and an append's expected revision is the
 * client's `streamState`. What this adapter adds: the append checks every adapter runs
 * (check-events.ts), the port's exclusive start on reads of `$all` (the client's `readAll`
 * starts AT its position), system records and links left out, batches with back-pressure and
 * resubscription for `subscribeToAll` (kurrentdb-subscription.ts). The pure translations are
 * in kurrentdb-mapping.ts.
 *
 * Replayed appends: KurrentDB recognises the event ids of a write it already took when the
 * retry carries the same expected revision (a number, or "no stream") and answers as the
 * first write did, without writing again. With "any" (and "stream exists") it only does so
 * from a cache of recent writes; the same ids at an expected revision that now matches the
 * stream (the one after the first write) are written again. Event ids are unique per stream
 * only: KurrentDB accepts an id again in another stream (the PostgreSQL adapter refuses it).
 * When the answer to an append carries no position, the appended event's is read back.
 */
import {
  BACKWARDS,
  END,
  jsonEvent,
  KurrentDBClient,
  type AppendResult as ClientAppendResult,
  type JSONType,
} from '@kurrent/kurrentdb-client';
import { comparePositions, START, type Position } from '../../events/position.js';
import { checkEvents } from './check-events.js';
import {
  InvalidAppendError,
  WrongExpectedRevisionError,
  type AllSubscriber,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
  type Subscription,
} from '../../ports/event-store.js';
import {
  isStreamDeleted,
  isStreamNotFound,
  isTransientError,
  keepAfter,
  positionOf,
  retryDelayMs,
  toAllFilter,
  toAppendError,
  toAppendResult,
  toClientError,
  toReadPosition,
  toRecordedEvent,
  toStreamState,
  type ClientResolvedEvent,
} from './kurrentdb-mapping.js';
import { runCatchUpSubscription, SubscriptionEndedError } from './kurrentdb-subscription.js';

const DEFAULT_READ_ALL_COUNT = 1000;
const DEFAULT_BATCH_SIZE = 500;

export interface KurrentDBEventStoreOptions {
  /** Told each time a dropped subscription is opened again (for the log). */
  onSubscriptionRetry?(error: unknown, attempt: number, delayMs: number): void;
}

/**
 * Opens the event store on the KurrentDB server of `connectionString`
 * (e.g. `kurrentdb://localhost:2113?tls=false`) and checks that it answers.
 */
export async function openKurrentDBEventStore(
  connectionString: string,
  options: KurrentDBEventStoreOptions = {},
): Promise<KurrentDBEventStore> {
  const client = KurrentDBClient.connectionString(connectionString);
  const store = new KurrentDBEventStore(client, options);
  try {
    await store.ping();
  } catch (error) {
    await client.dispose().catch(() => {});
    throw error;
  }
  return store;
}

export class KurrentDBEventStore implements EventStore {
  private readonly subscriptions = new Set<Subscription>();
  private closed = false;

  constructor(
    private readonly client: KurrentDBClient,
    private readonly options: KurrentDBEventStoreOptions = {},
  ) {}

  /** Reads the last record of `$all`: fails when the server cannot be reached or refuses us. */
  async ping(): Promise<void> {
    try {
      for await (const _ of this.client.readAll({ fromPosition: END, direction: BACKWARDS, maxCount: 1 })) break;
    } catch (error) {
      throw toClientError(error, 'read of $all');
    }
  }

  async append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    if (!stream) throw new InvalidAppendError('Stream name is empty.');
    checkEvents(events);
    const streamState = toStreamState(expectedRevision);
    let result: ClientAppendResult;
    try {
      result = await this.client.appendToStream(
        stream,
        events.map((event) =>
          jsonEvent({
            id: event.id,
            type: event.type,
            // The client writes JSON.stringify(data): any JSON value goes, as on PostgreSQL.
            data: (event.data ?? null) as JSONType,
            metadata: event.metadata,
          }),
        ),
        { streamState },
      );
    } catch (error) {
      throw toAppendError(error, stream, expectedRevision);
    }
    if (!result.success) {
      // Only with `throwOnAppendFailure=false` in the connection string; the client's answer
      // then has no trustworthy revision, so ask the stream.
      throw new WrongExpectedRevisionError(stream, expectedRevision, await this.lastRevision(stream));
    }
    return toAppendResult(result, (revision) => this.positionAt(stream, revision));
  }

  /** The stream's last revision, or "no_stream". */
  private async lastRevision(stream: string): Promise<bigint | 'no_stream'> {
    try {
      for await (const resolved of this.client.readStream(stream, { fromRevision: END, direction: BACKWARDS, maxCount: 1 })) {
        if (resolved.event) return resolved.event.revision;
      }
      return 'no_stream';
    } catch (error) {
      if (isStreamNotFound(error) || isStreamDeleted(error)) return 'no_stream';
      throw toClientError(error, `read of ${stream}`);
    }
  }

  /** The log position of one event of a stream (for an append answered without one). */
  private async positionAt(stream: string, revision: bigint): Promise<Position> {
    try {
      for await (const resolved of this.client.readStream(stream, { fromRevision: revision, maxCount: 1 })) {
        const position = positionOf(resolved);
        if (position) return position;
      }
    } catch (error) {
      throw toClientError(error, `read of ${stream}`);
    }
    throw new Error(`KurrentDB gave no position for ${stream}@${revision} after appending it.`);
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const wanted = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const out: RecordedEvent[] = [];
    let from = options.fromRevision ?? 0n;
    // Links and system records are left out; when some were, read on so that `maxCount`
    // still counts the events returned.
    while (out.length < wanted) {
      const requested = wanted - out.length;
      let read = 0;
      let last: bigint | null = null;
      try {
        for await (const resolved of this.client.readStream(stream, { fromRevision: from, maxCount: requested })) {
          read += 1;
          const record = resolved.event ?? resolved.link;
          if (record) last = record.revision;
          const event = toRecordedEvent(resolved);
          if (event) out.push(event);
        }
      } catch (error) {
        if (isStreamNotFound(error) || isStreamDeleted(error)) return out;
        throw toClientError(error, `read of ${stream}`);
      }
      if (read < requested || last === null) break;
      from = last + 1n;
    }
    return out.slice(0, wanted);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const wanted = options.maxCount ?? DEFAULT_READ_ALL_COUNT;
    const prefixes = options.filter?.streamPrefixes;
    const filter = toAllFilter(prefixes);
    const out: RecordedEvent[] = [];
    let after = options.after ?? START;
    while (out.length < wanted) {
      // The read starts AT `after`: one more than needed, for the event there.
      const requested = wanted - out.length + 1;
      const page: RecordedEvent[] = [];
      let read = 0;
      let last: Position | null = null;
      try {
        for await (const resolved of this.client.readAll({ fromPosition: toReadPosition(after), maxCount: requested, filter })) {
          read += 1;
          last = positionOf(resolved as ClientResolvedEvent) ?? last;
          const event = toRecordedEvent(resolved as ClientResolvedEvent, prefixes);
          if (event) page.push(event);
        }
      } catch (error) {
        throw toClientError(error, 'read of $all');
      }
      out.push(...keepAfter(page, after));
      // Fewer than asked: the end of the log. Otherwise some were left out: read on.
      if (read < requested || last === null || comparePositions(last, after) <= 0) break;
      after = last;
    }
    return out.slice(0, wanted);
  }

  subscribeToAll(options: SubscribeToAllOptions, subscriber: AllSubscriber): Subscription {
    if (this.closed) throw new Error('The event store is closed.');
    const prefixes = options.filter?.streamPrefixes;
    const filter = toAllFilter(prefixes);
    const client = this.client;
    const inner = runCatchUpSubscription(
      {
        after: options.after ?? START,
        batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
        open(after) {
          const subscription = client.subscribeToAll({ fromPosition: toReadPosition(after), filter });
          return {
            events: (async function* () {
              for await (const resolved of subscription) {
                const event = toRecordedEvent(resolved as ClientResolvedEvent, prefixes);
                if (event) yield event;
              }
            })(),
            async close() {
              await subscription.unsubscribe().catch(() => {});
              subscription.destroy();
            },
          };
        },
        shouldRetry: (error) => error instanceof SubscriptionEndedError || isTransientError(error),
        describeSourceError: (error) => toClientError(error, 'subscription to $all'),
        retryDelayMs,
        ...(this.options.onSubscriptionRetry ? { onRetry: this.options.onSubscriptionRetry } : {}),
      },
      {
        onEvents: (events) => subscriber.onEvents(events),
        onError: (error) => {
          this.subscriptions.delete(subscription);
          subscriber.onError?.(error);
        },
      },
    );
    const subscription: Subscription = {
      stop: async () => {
        await inner.stop();
        this.subscriptions.delete(subscription);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.client.dispose();
  }
}
