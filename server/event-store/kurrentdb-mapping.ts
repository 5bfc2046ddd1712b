/**
 * Pure translations between the event store port and `@kurrent/kurrentdb-client` (1.3.x):
 * expected revisions, recorded events, positions, filters and errors. No I/O here, so every
 * rule can be tested without a KurrentDB server (test/server/kurrentdb-mapping.test.ts).
 */
import {
  ANY,
  ErrorType,
  NO_STREAM,
  START as CLIENT_START,
  STREAM_EXISTS,
  excludeSystemEvents,
  streamNameFilter,
  type AppendResult as ClientAppendResult,
  type AppendStreamState,
  type Filter,
  type ReadPosition,
} from '@kurrent/kurrentdb-client';
import type { EventMetadata } from '../../events/metadata.js';
import { comparePositions, type Position } from '../../events/position.js';
import {
  InvalidAppendError,
  WrongExpectedRevisionError,
  type AppendResult,
  type ExpectedRevision,
  type RecordedEvent,
} from '../../ports/event-store.js';

/**
 * The parts of the client's `RecordedEvent` this adapter reads. The client's own
 * `ResolvedEvent` and `AllStreamResolvedEvent` fit these shapes.
 */
export interface ClientRecordedEvent {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  created: Date;
  /** Parsed JSON for a JSON event; bytes otherwise. */
  data: unknown;
  /** Parsed JSON when the metadata was JSON; bytes when not; undefined when empty. */
  metadata: unknown;
  isJson: boolean;
  /** Always set when reading `$all`; set by servers from 22.6 when reading a stream. */
  position?: Position | undefined;
}

export interface ClientResolvedEvent {
  event?: ClientRecordedEvent | undefined;
  /** Set only when links are resolved (this adapter never asks for that). */
  link?: ClientRecordedEvent | undefined;
  commitPosition?: bigint | undefined;
}

/** Type of the records KurrentDB writes for a link to another event. */
const LINK_TYPE = '$>';

// --- append -------------------------------------------------------------------------------

/** The port's expected revision as the client's `streamState`. */
export function toStreamState(expected: ExpectedRevision): AppendStreamState {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (typeof expected !== 'bigint' || expected < 0n) {
        throw new InvalidAppendError(`Expected revision is not a revision: ${String(expected)}`);
      }
      return expected;
  }
}

/**
 * A stream's actual state, as the client reports it, in the port's terms. Negative numbers
 * (the server's "no stream" -1, "deleted" -5 and "tombstoned" -6 markers) all mean no stream
 * that can be read.
 */
export function toActualRevision(state: unknown): bigint | 'no_stream' {
  if (typeof state === 'bigint') return state >= 0n ? state : 'no_stream';
  if (typeof state === 'number' && Number.isInteger(state)) return state >= 0 ? BigInt(state) : 'no_stream';
  if (typeof state === 'string' && /^\d+$/.test(state)) return BigInt(state);
  return 'no_stream';
}

/**
 * The client's answer to a successful append as the port's result. `position` is missing
 * from the answer when the server had no position to give (possible for a replayed append on
 * some server versions); the caller then looks the last event up with `findPosition`.
 */
export async function toAppendResult(
  result: { nextExpectedRevision: ClientAppendResult['nextExpectedRevision']; position?: Position | undefined },
  findPosition: (revision: bigint) => Promise<Position>,
): Promise<AppendResult> {
  const nextRevision = result.nextExpectedRevision;
  if (typeof nextRevision !== 'bigint' || nextRevision < 0n) {
    throw new Error(`KurrentDB answered an append without a revision (${String(nextRevision)}).`);
  }
  const position = result.position
    ? { commit: BigInt(result.position.commit), prepare: BigInt(result.position.prepare) }
    : await findPosition(nextRevision);
  return { nextRevision, position };
}

// --- errors -------------------------------------------------------------------------------

/** Status codes of @grpc/grpc-js that this module tells apart. */
const GRPC = {
  CANCELLED: 1,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  PERMISSION_DENIED: 7,
  UNIMPLEMENTED: 12,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16,
} as const;

function errorType(error: unknown): string | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  return typeof type === 'string' ? type : undefined;
}

function errorCode(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.constructor.name;
  return String(error);
}

/** The client's "stream not found" (a read of a stream that does not exist). */
export function isStreamNotFound(error: unknown): boolean {
  return errorType(error) === ErrorType.STREAM_NOT_FOUND;
}

/** A stream that was deleted or tombstoned: it reads like a missing stream. */
export function isStreamDeleted(error: unknown): boolean {
  const type = errorType(error);
  return type === ErrorType.STREAM_DELETED || type === ErrorType.STREAM_TOMBSTONED;
}

function isAccessDenied(error: unknown): boolean {
  const code = errorCode(error);
  return errorType(error) === ErrorType.ACCESS_DENIED || code === GRPC.PERMISSION_DENIED || code === GRPC.UNAUTHENTICATED;
}

function isUnreachable(error: unknown): boolean {
  const type = errorType(error);
  const code = errorCode(error);
  return (
    type === ErrorType.UNAVAILABLE ||
    type === ErrorType.DEADLINE_EXCEEDED ||
    type === ErrorType.TIMEOUT ||
    type === ErrorType.NOT_LEADER ||
    code === GRPC.UNAVAILABLE ||
    code === GRPC.DEADLINE_EXCEEDED
  );
}

/**
 * Any failure of the client as an error that says what was being done, keeping the client's
 * error as `cause`.
 */
export function toClientError(error: unknown, action: string): Error {
  if (isAccessDenied(error)) {
    return new Error(`KurrentDB refused access (${action}): check the credentials in the connection string.`, { cause: error });
  }
  if (isUnreachable(error)) {
    return new Error(`KurrentDB is unreachable (${action}): ${errorMessage(error)}`, { cause: error });
  }
  return new Error(`KurrentDB ${action} failed: ${errorMessage(error)}`, { cause: error });
}

/** A failed append in the port's terms: a conflict, a malformed append, or a client failure. */
export function toAppendError(error: unknown, stream: string, expected: ExpectedRevision): Error {
  const type = errorType(error);
  if (type === ErrorType.WRONG_EXPECTED_VERSION) {
    return new WrongExpectedRevisionError(stream, expected, toActualRevision((error as { actualState?: unknown }).actualState));
  }
  if (isStreamDeleted(error)) {
    return new Error(`Stream ${stream} was deleted in KurrentDB: it cannot be appended to.`, { cause: error });
  }
  if (
    type === ErrorType.MAXIMUM_APPEND_SIZE_EXCEEDED ||
    type === ErrorType.APPEND_RECORD_SIZE_EXCEEDED ||
    type === ErrorType.TRANSACTION_MAX_SIZE_EXCEEDED ||
    type === ErrorType.INVALID_ARGUMENT ||
    (type === undefined && errorCode(error) === GRPC.INVALID_ARGUMENT)
  ) {
    return new InvalidAppendError(`KurrentDB refused the append to ${stream}: ${errorMessage(error)}`);
  }
  return toClientError(error, `append to ${stream}`);
}

const TRANSIENT_TYPES: ReadonlySet<string> = new Set([
  ErrorType.UNAVAILABLE,
  ErrorType.DEADLINE_EXCEEDED,
  ErrorType.TIMEOUT,
  ErrorType.NOT_LEADER,
  ErrorType.CANCELLED,
  ErrorType.UNKNOWN,
]);
const PERMANENT_CODES: ReadonlySet<number> = new Set([
  GRPC.INVALID_ARGUMENT,
  GRPC.NOT_FOUND,
  GRPC.PERMISSION_DENIED,
  GRPC.UNIMPLEMENTED,
  GRPC.UNAUTHENTICATED,
]);

/**
 * Whether a subscription that failed with this error should be opened again: a lost
 * connection, a leader change, a server restart. Not: refused access, a bad request, or an
 * error of our own (an event that cannot be mapped), which would only fail again.
 */
export function isTransientError(error: unknown): boolean {
  const type = errorType(error);
  if (type !== undefined && TRANSIENT_TYPES.has(type)) return true;
  if (type !== undefined) return false;
  const code = errorCode(error);
  return code !== undefined && !PERMANENT_CODES.has(code);
}

/** Delay before opening a dropped subscription again: 250 ms doubling up to 10 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(250 * 2 ** Math.max(0, attempt - 1), 10_000);
}

// --- reading ------------------------------------------------------------------------------

/** KurrentDB's own records: `$`-prefixed event types (`$metadata`, `$>`...) or streams. */
export function isSystemRecord(record: Pick<ClientRecordedEvent, 'type' | 'streamId'>): boolean {
  return record.type.startsWith('$') || record.streamId.startsWith('$');
}

export function matchesPrefixes(stream: string, prefixes: readonly string[] | undefined): boolean {
  return !prefixes?.length || prefixes.some((prefix) => stream.startsWith(prefix));
}

/** The log position of whatever record this is (skipped or not), to page on from it. */
export function positionOf(resolved: ClientResolvedEvent): Position | null {
  const record = resolved.event ?? resolved.link;
  if (record?.position) return { commit: BigInt(record.position.commit), prepare: BigInt(record.position.prepare) };
  if (resolved.commitPosition !== undefined) return { commit: resolved.commitPosition, prepare: resolved.commitPosition };
  return null;
}

function toMetadata(raw: unknown, record: ClientRecordedEvent): EventMetadata {
  let value = raw;
  if (value instanceof Uint8Array) value = Buffer.from(value).toString('utf8');
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      value = undefined;
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(
      `Event ${record.id} (${record.streamId}@${record.revision}) has no JSON metadata: it was not written through this event store.`,
    );
  }
  return value as EventMetadata;
}

/**
 * A resolved event of the client as the port's recorded event, or null for what the port
 * never shows: links, KurrentDB's system records, events of streams outside the prefixes.
 */
export function toRecordedEvent(resolved: ClientResolvedEvent, prefixes?: readonly string[]): RecordedEvent | null {
  const record = resolved.event;
  if (!record || resolved.link || record.type === LINK_TYPE || isSystemRecord(record)) return null;
  if (!matchesPrefixes(record.streamId, prefixes)) return null;
  const position = positionOf(resolved);
  if (!position) {
    throw new Error(`KurrentDB gave event ${record.id} no log position (the server must be 22.6 or later).`);
  }
  return {
    id: record.id,
    stream: record.streamId,
    revision: BigInt(record.revision),
    position,
    type: record.type,
    data: record.data,
    metadata: toMetadata(record.metadata, record),
    recordedAt: record.created instanceof Date ? record.created : new Date(record.created),
  };
}

/** Where a read of `$all` starts for the port's exclusive `after` (START is the client's). */
export function toReadPosition(after: Position | undefined): ReadPosition {
  if (!after || after.commit < 0n || after.prepare < 0n) return CLIENT_START;
  return { commit: after.commit, prepare: after.prepare };
}

/**
 * The events strictly after `after`, in order. The client's `readAll` starts AT its
 * `fromPosition` (inclusive), the port reads after it (exclusive): this drops the event at
 * `after` itself, and anything before it a resumed subscription might repeat.
 */
export function keepAfter<T extends { position: Position }>(events: readonly T[], after: Position | undefined): T[] {
  if (!after) return [...events];
  return events.filter((event) => comparePositions(event.position, after) > 0);
}

/**
 * The server-side filter for reading or subscribing to `$all`: the stream prefixes when
 * given (no prefix of ours starts with `$`, so that also leaves system streams out), else
 * every event whose type does not start with `$`.
 */
export function toAllFilter(prefixes: readonly string[] | undefined): Filter {
  return prefixes?.length ? streamNameFilter({ prefixes: [...prefixes] }) : excludeSystemEvents();
}
