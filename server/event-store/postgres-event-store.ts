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
import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '../../events/metadata.js';
import { comparePositions, START } from '../../events/position.js';
import { sqlState, UNIQUE_VIOLATION, type Database } from '../../ports/database.js';
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

/** Channel notified (at commit) by every append, to wake subscriptions without waiting. */
const APPENDED_CHANNEL = 'mapfold_events_appended';
/**
 * Most bytes of stream names one notice carries (NOTIFY takes 8,000): a notice with more names
 * than fit carries none, and the listeners of appended streams miss it (they follow the log too).
 */
const NOTICE_STREAMS_BYTES = 7_000;
/**
 * How often the store looks whether the log's visible horizon moved without a notice. A read
 * shows only the events of transactions older than every transaction still open (the snapshot's
 * xmin): an append that commits while an older transaction (a rolled-back append, a projection's
 * own write) is open is held back, and when that older one ends, no notice says so.
 */
const HORIZON_POLL_MS = 250;
/**
 * Data (as stored, compressed) a subscription's read brings at most, unless told otherwise: one
 * of an import's 5,000-location events (about 300 KB so), so each projection transaction that
 * follows is a bounded piece of work. Small events come 500 to a read as before.
 */
const SUBSCRIPTION_BATCH_BYTES = 256 * 1024;

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

-- The whole append in one statement (one round trip, its own transaction): replay check,
-- stream lock, expected-revision check, insert. A mismatch raises SQLSTATE MF409 with the
-- stream's actual revision ('no_stream' or a number) as the error's detail.
CREATE OR REPLACE FUNCTION es_append(p_stream text, p_expected text, p_events jsonb)
RETURNS TABLE (next_revision text, commit_position text, prepare_position text)
LANGUAGE plpgsql AS $$
DECLARE
  v_total integer := jsonb_array_length(p_events);
  v_ids uuid[] := ARRAY(SELECT (e->>'id')::uuid FROM jsonb_array_elements(p_events) AS e);
  v_found integer;
  v_elsewhere boolean;
  v_current bigint;
  v_last bigint;
BEGIN
  SELECT count(*), bool_or(stream_id <> p_stream) INTO v_found, v_elsewhere FROM es_events WHERE event_id = ANY(v_ids);
  IF v_found > 0 THEN
    IF v_found = v_total AND NOT v_elsewhere THEN
      RETURN QUERY SELECT stream_revision::text, transaction_id::text, global_position::text
        FROM es_events WHERE event_id = ANY(v_ids) ORDER BY es_events.stream_revision DESC LIMIT 1;
      RETURN;
    END IF;
    SELECT revision INTO v_current FROM es_streams WHERE stream_id = p_stream;
    RAISE EXCEPTION USING ERRCODE = 'MF409', MESSAGE = 'event ids already used', DETAIL = COALESCE(v_current::text, 'no_stream');
  END IF;

  SELECT revision INTO v_current FROM es_streams WHERE stream_id = p_stream FOR UPDATE;
  IF NOT (p_expected = 'any'
      OR (p_expected = 'no_stream' AND v_current IS NULL)
      OR (p_expected = 'stream_exists' AND v_current IS NOT NULL)
      OR (p_expected ~ '^[0-9]+$' AND v_current = p_expected::bigint)) THEN
    RAISE EXCEPTION USING ERRCODE = 'MF409', MESSAGE = 'wrong expected revision', DETAIL = COALESCE(v_current::text, 'no_stream');
  END IF;

  v_last := COALESCE(v_current, -1) + v_total;
  INSERT INTO es_events (event_id, stream_id, stream_revision, type, data, metadata)
  SELECT (e.value->>'id')::uuid, p_stream, v_last - v_total + e.ord, e.value->>'type', e.value->'data', e.value->'metadata'
    FROM jsonb_array_elements(p_events) WITH ORDINALITY AS e(value, ord)
   ORDER BY e.ord;
  INSERT INTO es_streams (stream_id, revision) VALUES (p_stream, v_last)
    ON CONFLICT (stream_id) DO UPDATE SET revision = EXCLUDED.revision;
  RETURN QUERY SELECT stream_revision::text, transaction_id::text, global_position::text
    FROM es_events WHERE stream_id = p_stream AND stream_revision = v_last;
END;
$$;

-- Reading the log in position order must walk the (transaction_id, global_position) index:
-- a planner without statistics (a fresh or just-restored table) would otherwise sort the
-- rest of the table for every batch. The function's settings keep it on the index.
CREATE OR REPLACE FUNCTION es_read_all(p_commit bigint, p_prepare bigint, p_limit integer, p_prefixes text[])
RETURNS SETOF es_events
LANGUAGE sql STABLE
SET enable_bitmapscan = off
SET enable_sort = off
AS $$
  SELECT * FROM es_events
   WHERE (transaction_id, global_position) > (p_commit, p_prepare)
     AND transaction_id < (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint)
     AND (p_prefixes IS NULL OR EXISTS (SELECT 1 FROM unnest(p_prefixes) AS prefix WHERE starts_with(es_events.stream_id, prefix)))
   ORDER BY transaction_id, global_position
   LIMIT p_limit
$$;

-- The same, stopping once the events read hold p_max_bytes of data as stored (compressed;
-- pg_column_size reads no value): a subscription reading an import's 5,000-location events
-- took all twenty in one read and one projection transaction, which held the embedded
-- database for half a minute (issue 26 item 8). The first event always comes.
CREATE OR REPLACE FUNCTION es_read_all_within(p_commit bigint, p_prepare bigint, p_limit integer, p_prefixes text[], p_max_bytes bigint)
RETURNS SETOF es_events
LANGUAGE sql STABLE
SET enable_bitmapscan = off
AS $$
  SELECT global_position, transaction_id, event_id, stream_id, stream_revision, type, data, metadata, recorded_at FROM (
    SELECT candidates.*, sum(pg_column_size(candidates.data)) OVER (ORDER BY transaction_id, global_position) AS read_bytes
      FROM (SELECT * FROM es_events
             WHERE (transaction_id, global_position) > (p_commit, p_prepare)
               AND transaction_id < (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint)
               AND (p_prefixes IS NULL OR EXISTS (SELECT 1 FROM unnest(p_prefixes) AS prefix WHERE starts_with(es_events.stream_id, prefix)))
             ORDER BY transaction_id, global_position
             LIMIT p_limit) AS candidates
  ) AS bounded
   WHERE read_bytes - pg_column_size(data) < p_max_bytes
   ORDER BY transaction_id, global_position
$$;
`;


/** SQLSTATE raised by es_append when the stream is not where the append expected it. */
const WRONG_REVISION = 'MF409';

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

/** What an append notice carries: the sending store, and the streams appended to (none when too many). */
interface AppendNotice {
  from: string;
  streams: string[];
}

function parseAppendNotice(payload: string): AppendNotice | null {
  try {
    const notice = JSON.parse(payload) as Partial<AppendNotice>;
    return typeof notice.from === 'string' && Array.isArray(notice.streams) ? { from: notice.from, streams: notice.streams.filter((s) => typeof s === 'string') } : null;
  } catch {
    return null;
  }
}

/**
 * Whether a subscription's read may have left events behind: it brought `batchSize`, or its
 * data may have reached the byte bound. The bound counts the data as stored (pg_column_size,
 * compressed or not), which is at most a few times its JSON text: text under an eighth of the
 * bound cannot have reached it. A read of one small edit then ends the round, where reading on
 * cost every subscription (a dozen per process) a second, empty read per append.
 */
function mayHaveMore(events: readonly RecordedEvent[], batchSize: number, maxBytes: number): boolean {
  if (events.length >= batchSize) return true;
  const enough = Math.ceil(maxBytes / 8);
  let text = 0;
  for (const event of events) {
    text += jsonTextLength(event.data ?? null, enough - text);
    if (text >= enough) return true;
  }
  return false;
}

/**
 * `JSON.stringify(value).length` for data read from the log (JSON values), or a number at
 * least `atLeast` as soon as the text is that long: only as much of the value is printed as
 * that takes. Printing each event whole to learn that it passed 32 KB printed a big import's
 * 5,000-location parts (1.6 MB each) once per subscription per read: 1.2 s of the event
 * loop's time during a 100,000-row import on PGlite (CPU profile of the fairness bench).
 */
export function jsonTextLength(value: unknown, atLeast: number): number {
  if (Array.isArray(value)) {
    let length = 1;
    for (let i = 0; i < value.length && length < atLeast; i++) length += (i > 0 ? 1 : 0) + jsonTextLength(value[i] ?? null, atLeast - length);
    return length + 1;
  }
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    let length = 1;
    let first = true;
    for (const [key, item] of Object.entries(value)) {
      if (length >= atLeast) break;
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      length += (first ? 0 : 1) + JSON.stringify(key).length + 1 + jsonTextLength(item, atLeast - length);
      first = false;
    }
    return length + 1;
  }
  return (JSON.stringify(value) as string | undefined)?.length ?? 4;
}

export class PostgresEventStore implements EventStore {
  /** Each subscription's wake, with the stream prefixes it reads (null: every stream). */
  private readonly wakers = new Map<() => void, readonly string[] | null>();
  private readonly appendListeners = new Set<(streams: readonly string[]) => void>();
  private unlisten: (() => Promise<void>) | null = null;
  private readonly subscriptions = new Set<Subscription>();
  private notifyInFlight = false;
  /** Streams appended to since the last notice went out (the next one names them). */
  private readonly toAnnounce = new Set<string>();
  private closed = false;
  /** Tells this store's own notices from other processes' (it heard of its appends at once). */
  private readonly id = randomUUID();
  /** Counts the wakes (an append here, another process's notice): a read begun since saw every append they announced. */
  private wakes = 0;
  /** The subscriptions' reads of the log in flight, by what they ask (readShared). */
  private readonly sharedReads = new Map<string, { wakes: number; rows: Promise<EventRow[]> }>();
  /** The horizon watch (watchHorizon) while any subscription is open: its timer, and the horizon it last saw. */
  private horizonWatch: { timer: NodeJS.Timeout | null; stopped: boolean; last: string | null } | null = null;

  private constructor(private readonly db: Database) {}

  /** Creates the tables if needed and starts listening for appends. */
  static async open(db: Database): Promise<PostgresEventStore> {
    await db.exec(EVENT_STORE_SCHEMA);
    const store = new PostgresEventStore(db);
    store.unlisten = await db.listen(APPENDED_CHANNEL, (payload) => store.onNotice(payload));
    return store;
  }

  /**
   * Another process appended (or this one: its own notice comes back too, and is dropped, since
   * its appends woke everything at once; waking every subscription again cost each a read).
   */
  private onNotice(payload: string): void {
    const notice = parseAppendNotice(payload);
    if (notice?.from === this.id) return;
    const streams = notice && notice.streams.length > 0 ? notice.streams : null;
    this.wake(streams);
    if (streams) this.tellAppended(streams);
  }

  /**
   * Wakes the subscriptions that read any of `streams` (all of them when not known): a map's
   * edit need not make the billing, comments or webhooks subscriptions read the log.
   */
  private wake(streams: readonly string[] | null): void {
    this.wakes++;
    for (const [wake, prefixes] of [...this.wakers]) {
      if (!streams || !prefixes || streams.some((stream) => prefixes.some((prefix) => stream.startsWith(prefix)))) wake();
    }
  }

  /**
   * One watch of the visible horizon for all of this store's subscriptions, instead of each
   * reading the log four times a second in case events became visible without a notice (an
   * idle server made some 46 reads a second, 6% of a core, doing nothing). What a read can
   * show is every event of a transaction older than the snapshot's xmin, so it changes only
   * when xmin does: while xmin stays put, no subscription has anything new to read that a
   * notice would not have woken it for. When xmin moves, or the watch cannot tell, every
   * subscription reads again, as each did after its own quarter of a second before.
   */
  private watchHorizon(): void {
    if (this.horizonWatch || this.closed) return;
    const watch = { timer: null as NodeJS.Timeout | null, stopped: false, last: null as string | null };
    this.horizonWatch = watch;
    const tick = async () => {
      let horizon: string | null;
      try {
        const { rows } = await this.db.query<{ horizon: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon');
        horizon = rows[0]?.horizon ?? null;
      } catch {
        horizon = null;
      }
      if (watch.stopped) return;
      if (horizon === null || horizon !== watch.last) this.wake(null);
      watch.last = horizon;
    };
    const schedule = () => {
      watch.timer = setTimeout(() => void tick().finally(() => !watch.stopped && schedule()), HORIZON_POLL_MS);
      // The watch alone does not keep a process alive (a script that forgot to close its store).
      watch.timer.unref();
    };
    schedule();
  }

  /** Ends the horizon watch once no subscription is left. */
  private stopHorizonWatch(): void {
    const watch = this.horizonWatch;
    if (this.wakers.size > 0 || !watch) return;
    watch.stopped = true;
    if (watch.timer) clearTimeout(watch.timer);
    this.horizonWatch = null;
  }

  private tellAppended(streams: readonly string[]): void {
    for (const listener of [...this.appendListeners]) {
      try {
        listener(streams);
      } catch {
        // A listener's failure is its own: the append it hears of happened.
      }
    }
  }

  /**
   * Tells `listener` which streams have new events: at once after this process's appends, and
   * through the append notices for other processes' (each stream's events are then readable
   * with readStream, which unlike the log needs no older transaction to end). A hint: a notice
   * may be lost or name too many streams to carry them, so a reader follows the log as well.
   */
  onStreamsAppended(listener: (streams: readonly string[]) => void): () => void {
    this.appendListeners.add(listener);
    return () => this.appendListeners.delete(listener);
  }

  async append(stream: string, events: readonly NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    if (!stream) throw new InvalidAppendError('Stream name is empty.');
    checkEvents(events);
    const payload = JSON.stringify(
      events.map((event) => ({ id: event.id, type: event.type, data: event.data ?? null, metadata: event.metadata })),
    );
    const expected = typeof expectedRevision === 'bigint' ? expectedRevision.toString() : expectedRevision;
    // Two appends racing to create a stream meet at a unique index, as do an append and its
    // own retry; the loser tries again below.
    for (let attempt = 0; ; attempt++) {
      try {
        const { rows } = await this.db.query<{ next_revision: string; commit_position: string; prepare_position: string }>(
          'SELECT * FROM es_append($1, $2, $3::jsonb)',
          [stream, expected, payload],
        );
        const row = rows[0]!;
        this.announceAppend(stream);
        return {
          nextRevision: BigInt(row.next_revision),
          position: { commit: BigInt(row.commit_position), prepare: BigInt(row.prepare_position) },
        };
      } catch (error) {
        const state = sqlState(error);
        if (state === WRONG_REVISION) {
          const detail = (error as { detail?: string }).detail ?? 'no_stream';
          throw new WrongExpectedRevisionError(stream, expectedRevision, detail === 'no_stream' ? 'no_stream' : BigInt(detail));
        }
        // Retrying lets es_append see the winner: a replay, a stream now at another revision,
        // or (for "any") simply the next revision.
        if (state !== UNIQUE_VIOLATION || attempt >= 3) throw error;
      }
    }
  }

  /**
   * Wakes this process's subscriptions and tells its append listeners at once, and other
   * processes' through NOTIFY. The NOTIFY is sent after commit, outside the append (NOTIFY at
   * commit takes a database-wide lock that would serialise every append), and coalesced: one
   * notice names the streams appended to since the last one went out.
   */
  private announceAppend(stream: string): void {
    // The listeners first: the live hub's read of the stream then goes before the subscriptions'.
    this.tellAppended([stream]);
    this.wake([stream]);
    this.toAnnounce.add(stream);
    if (this.notifyInFlight) return;
    this.notifyInFlight = true;
    void (async () => {
      while (this.toAnnounce.size > 0 && !this.closed) {
        const streams = [...this.toAnnounce];
        this.toAnnounce.clear();
        const fits = Buffer.byteLength(streams.join()) <= NOTICE_STREAMS_BYTES;
        const payload = JSON.stringify({ from: this.id, streams: fits ? streams : [] } satisfies AppendNotice);
        await this.db.query('SELECT pg_notify($1, $2)', [APPENDED_CHANNEL, payload]).catch(() => {});
      }
      this.notifyInFlight = false;
    })();
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
    return (await this.readRows(options)).map(toRecorded);
  }

  private async readRows(options: ReadAllOptions): Promise<EventRow[]> {
    const after = options.after ?? START;
    const prefixes = options.filter?.streamPrefixes?.length ? [...options.filter.streamPrefixes] : null;
    const params = [after.commit.toString(), after.prepare.toString(), options.maxCount ?? 1000, prefixes];
    const { rows } =
      options.maxBytes === undefined
        ? await this.db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM es_read_all($1::bigint, $2::bigint, $3::integer, $4::text[]) ORDER BY transaction_id, global_position`, params)
        : await this.db.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM es_read_all_within($1::bigint, $2::bigint, $3::integer, $4::text[], $5::bigint) ORDER BY transaction_id, global_position`, [
            ...params,
            options.maxBytes,
          ]);
    return rows;
  }

  /**
   * A subscription's read: one asking what a read in flight asks (the same position, filter and
   * bounds) takes that read's answer, if no wake came since it began (so it saw every append
   * announced so far). A map's edit wakes the half-dozen projections that follow map streams,
   * all at the same position: one query instead of one each (issue 26 item 5). Each caller gets
   * events of its own; their data, which nothing changes, is shared.
   */
  private async readShared(options: ReadAllOptions): Promise<RecordedEvent[]> {
    const after = options.after ?? START;
    const key = JSON.stringify([after.commit.toString(), after.prepare.toString(), options.maxCount ?? null, options.maxBytes ?? null, options.filter?.streamPrefixes ?? null]);
    const inFlight = this.sharedReads.get(key);
    if (inFlight && inFlight.wakes === this.wakes) return (await inFlight.rows).map(toRecorded);
    const read = { wakes: this.wakes, rows: this.readRows(options) };
    this.sharedReads.set(key, read);
    try {
      return (await read.rows).map(toRecorded);
    } finally {
      if (this.sharedReads.get(key) === read) this.sharedReads.delete(key);
    }
  }

  subscribeToAll(options: SubscribeToAllOptions, subscriber: AllSubscriber): Subscription {
    let after = options.after ?? START;
    let stopped = false;
    let wake: (() => void) | null = null;
    let pendingWake = false;
    const batchSize = options.batchSize ?? 500;
    const maxBytes = options.maxBatchBytes ?? SUBSCRIPTION_BATCH_BYTES;

    const sleep = () =>
      new Promise<void>((resolve) => {
        if (pendingWake || stopped) {
          pendingWake = false;
          resolve();
          return;
        }
        // Woken by a notice of an append to its streams, or by the store's horizon watch.
        wake = () => {
          wake = null;
          resolve();
        };
      });
    const waker = () => {
      if (wake) wake();
      else pendingWake = true;
    };
    this.wakers.set(waker, options.filter?.streamPrefixes?.length ? [...options.filter.streamPrefixes] : null);
    this.watchHorizon();

    const loop = (async () => {
      while (!stopped) {
        // Clear the flag before reading, so a notice that lands during the read is not lost.
        pendingWake = false;
        const events = await this.readShared({ after, maxCount: batchSize, maxBytes, ...(options.filter ? { filter: options.filter } : {}) });
        if (stopped) break;
        if (events.length > 0) {
          await subscriber.onEvents(events);
          const last = events[events.length - 1]!;
          if (comparePositions(last.position, after) > 0) after = last.position;
          // A full read, or one the byte bound may have cut short: read on until nothing is left.
          if (mayHaveMore(events, batchSize, maxBytes)) continue;
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
        this.stopHorizonWatch();
        wake?.();
        await loop;
        this.subscriptions.delete(subscription);
      },
    };
    this.subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.subscriptions].map((subscription) => subscription.stop()));
    await this.unlisten?.();
    this.unlisten = null;
  }
}

