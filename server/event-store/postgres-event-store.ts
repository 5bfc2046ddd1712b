/**
 * The event store on PostgreSQL (a server through `pg`, or PGlite).
 *
 * Ordering and the "never skip" guarantee: every event records the id of the transaction that
 * wrote it (`transaction_id`) next to a sequence number (`global_position`). Sequence numbers
 * are taken before commit, so transactions can commit out of sequence order, and a reader that
 * followed sequence numbers alone could pass an event whose transaction was still open. Readers
 * therefore order by (transaction_id, global_position) and only read events of transactions
 * older than the oldest transaction still running (`pg_snapshot_xmin`): every such transaction
 * has finished, so nothing can later appear before what was read. The pair is the event's
 * position `{commit: transaction_id, prepare: global_position}`.
 */
import { EventMetadata } from '../../events/metadata.js';
import { comparePositions, START } from '../../events/position.js';
import { sqlState, UNIQUE_VIOLATION, type Database, type Queryable } from '../db/database.js';
import {
  InvalidAppendError,
  WrongExpectedRevisionError,
  type AllFilter,
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
} from './event-store.js';

/** Channel notified (at commit) by every append, to wake subscriptions without waiting. */
const APPENDED_CHANNEL = 'mapfold_events_appended';
/** Subscriptions also look every so often: a rolled-back older transaction sends no notice. */
const FALLBACK_POLL_MS = 250;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const EVENT_STORE_SCHEMA = `
CREATE TABLE IF NOT EXISTS es_streams (
  stream_id text PRIMARY KEY,
  revision bigint NOT NULL
);
CREATE TABLE IF NOT EXISTS es_events (
  global_position bigserial NOT NULL,
  transaction_id bigint NOT NULL DEFAULT (pg_current_xact_id()::text::bigint),
  event_id uuid NOT NULL,
  stream_id text NOT NULL,
  stream_revision bigint NOT NULL,
  type text NOT NULL,
  data jsonb NOT NULL,
  metadata jsonb NOT NULL,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (transaction_id, global_position),
  CONSTRAINT es_events_event_id_unique UNIQUE (event_id),
  CONSTRAINT es_events_stream_revision_unique UNIQUE (stream_id, stream_revision)
);
`;

interface EventRow {
  id: string;
  stream: string;
  revision_text: string;
  commit_text: string;
  prepare_text: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date | string;
}

// Bigints leave as text (the drivers disagree on int8), under names of their own: an ORDER BY
// on a column name would otherwise sort the text output column, putting "10" before "9".
const EVENT_COLUMNS = `event_id::text AS id, stream_id AS stream, stream_revision::text AS revision_text,
  transaction_id::text AS commit_text, global_position::text AS prepare_text, type, data, metadata, recorded_at`;

function toRecorded(row: EventRow): RecordedEvent {
  return {
    id: row.id,
    stream: row.stream,
    revision: BigInt(row.revision_text),
    position: { commit: BigInt(row.commit_text), prepare: BigInt(row.prepare_text) },
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at instanceof Date ? row.recorded_at : new Date(row.recorded_at),
  };
}

function checkEvents(events: readonly NewEvent[]): void {
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

function filterSql(filter: AllFilter | undefined, params: unknown[]): string {
  const prefixes = filter?.streamPrefixes;
  if (!prefixes || prefixes.length === 0) return '';
  const likes = prefixes.map((prefix) => {
    params.push(`${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    return `stream_id LIKE $${params.length}`;
  });
  return ` AND (${likes.join(' OR ')})`;
}

export class PostgresEventStore implements EventStore {
  private readonly wakers = new Set<() => void>();
  private unlisten: (() => Promise<void>) | null = null;
  private readonly subscriptions = new Set<Subscription>();

  private constructor(private readonly db: Database) {}

  /** Creates the tables if needed and starts listening for appends. */
  static async open(db: Database): Promise<PostgresEventStore> {
    await db.exec(EVENT_STORE_SCHEMA);
    const store = new PostgresEventStore(db);
    store.unlisten = await db.listen(APPENDED_CHANNEL, () => store.wakeAll());
    return store;
  }

  private wakeAll(): void {
    for (const wake of [...this.wakers]) wake();
  }

  async append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    if (!stream) throw new InvalidAppendError('Stream name is empty.');
    checkEvents(events);
    // A race on a new stream ends in a unique violation; with "any" or a retried append the
    // right answer is then to look again, so try a few times before giving up.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.db.transaction((tx) => this.appendInTransaction(tx, stream, events, expectedRevision));
      } catch (error) {
        if (sqlState(error) !== UNIQUE_VIOLATION) throw error;
        const replay = await this.findAppended(this.db, stream, events);
        if (replay) return replay;
        const actual = await this.currentRevision(this.db, stream);
        if (expectedRevision !== 'any' || attempt >= 3) {
          throw new WrongExpectedRevisionError(stream, expectedRevision, actual);
        }
      }
    }
  }

  private async currentRevision(db: Queryable, stream: string, lock = false): Promise<bigint | 'no_stream'> {
    const { rows } = await db.query<{ revision: string }>(
      `SELECT revision::text FROM es_streams WHERE stream_id = $1${lock ? ' FOR UPDATE' : ''}`,
      [stream],
    );
    return rows[0] ? BigInt(rows[0].revision) : 'no_stream';
  }

  /** If these exact events are already in the stream (a retried append), their result. */
  private async findAppended(db: Queryable, stream: string, events: readonly NewEvent[]): Promise<AppendResult | null> {
    const { rows } = await db.query<{ stream_id: string; stream_revision: string; transaction_id: string; global_position: string }>(
      `SELECT stream_id, stream_revision::text, transaction_id::text, global_position::text
         FROM es_events WHERE event_id = ANY($1::uuid[]) ORDER BY es_events.stream_revision`,
      [events.map((event) => event.id)],
    );
    if (rows.length === 0) return null;
    if (rows.length !== events.length || rows.some((row) => row.stream_id !== stream)) {
      throw new WrongExpectedRevisionError(stream, 'any', await this.currentRevision(db, stream));
    }
    const last = rows[rows.length - 1]!;
    return {
      nextRevision: BigInt(last.stream_revision),
      position: { commit: BigInt(last.transaction_id), prepare: BigInt(last.global_position) },
    };
  }

  private async appendInTransaction(
    tx: Queryable,
    stream: string,
    events: readonly NewEvent[],
    expected: ExpectedRevision,
  ): Promise<AppendResult> {
    const replay = await this.findAppended(tx, stream, events);
    if (replay) return replay;

    const current = await this.currentRevision(tx, stream, true);
    const matches =
      expected === 'any' ||
      (expected === 'no_stream' && current === 'no_stream') ||
      (expected === 'stream_exists' && current !== 'no_stream') ||
      (typeof expected === 'bigint' && current === expected);
    if (!matches) throw new WrongExpectedRevisionError(stream, expected, current);

    const first = current === 'no_stream' ? 0n : current + 1n;
    const payload = JSON.stringify(
      events.map((event) => ({ id: event.id, type: event.type, data: event.data ?? null, metadata: event.metadata })),
    );
    const { rows } = await tx.query<{ stream_revision: string; transaction_id: string; global_position: string }>(
      `INSERT INTO es_events (event_id, stream_id, stream_revision, type, data, metadata)
       SELECT (e.value->>'id')::uuid, $1, $2::bigint + e.ord - 1, e.value->>'type', e.value->'data', e.value->'metadata'
         FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(value, ord)
        ORDER BY e.ord
       RETURNING stream_revision::text, transaction_id::text, global_position::text`,
      [stream, first.toString(), payload],
    );
    const last = rows.reduce((a, b) => (BigInt(a.stream_revision) > BigInt(b.stream_revision) ? a : b));
    await tx.query(
      `INSERT INTO es_streams (stream_id, revision) VALUES ($1, $2::bigint)
       ON CONFLICT (stream_id) DO UPDATE SET revision = EXCLUDED.revision`,
      [stream, last.stream_revision],
    );
    // Delivered at commit, and only if the transaction commits.
    await tx.query(`SELECT pg_notify($1, '')`, [APPENDED_CHANNEL]);
    return {
      nextRevision: BigInt(last.stream_revision),
      position: { commit: BigInt(last.transaction_id), prepare: BigInt(last.global_position) },
    };
  }

  async readStream(stream: string, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const params: unknown[] = [stream, (options.fromRevision ?? 0n).toString()];
    let limit = '';
    if (options.maxCount !== undefined) {
      params.push(options.maxCount);
      limit = ` LIMIT $${params.length}`;
    }
    const { rows } = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events
        WHERE stream_id = $1 AND stream_revision >= $2::bigint
        ORDER BY stream_revision${limit}`,
      params,
    );
    return rows.map(toRecorded);
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const after = options.after ?? START;
    const params: unknown[] = [after.commit.toString(), after.prepare.toString(), options.maxCount ?? 1000];
    const filter = filterSql(options.filter, params);
    const { rows } = await this.db.query<EventRow>(
      `SELECT ${EVENT_COLUMNS} FROM es_events
        WHERE (transaction_id, global_position) > ($1::bigint, $2::bigint)
          AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint${filter}
        ORDER BY transaction_id, global_position
        LIMIT $3`,
      params,
    );
    return rows.map(toRecorded);
  }

  subscribeToAll(options: SubscribeToAllOptions, subscriber: AllSubscriber): Subscription {
    let after = options.after ?? START;
    let stopped = false;
    let wake: (() => void) | null = null;
    let pendingWake = false;
    const batchSize = options.batchSize ?? 500;

    const sleep = () =>
      new Promise<void>((resolve) => {
        if (pendingWake || stopped) {
          pendingWake = false;
          resolve();
          return;
        }
        const timer = setTimeout(done, FALLBACK_POLL_MS);
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });
    const waker = () => {
      if (wake) wake();
      else pendingWake = true;
    };
    this.wakers.add(waker);

    const loop = (async () => {
      while (!stopped) {
        // Clear the flag before reading, so a notice that lands during the read is not lost.
        pendingWake = false;
        const events = await this.readAll({ after, maxCount: batchSize, ...(options.filter ? { filter: options.filter } : {}) });
        if (stopped) break;
        if (events.length > 0) {
          await subscriber.onEvents(events);
          const last = events[events.length - 1]!;
          if (comparePositions(last.position, after) > 0) after = last.position;
          if (events.length === batchSize) continue;
        }
        await sleep();
      }
    })().catch((error: unknown) => {
      if (!stopped) subscriber.onError?.(error);
    });

    const subscription: Subscription = {
      stop: async () => {
        stopped = true;
        this.wakers.delete(waker);
        wake?.();
        await loop;
        this.subscriptions.delete(subscription);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.unlisten?.();
    this.unlisten = null;
  }
}

