/**
 * The one way anything is appended to the event store (emmett's `handleCommand`): load the
 * aggregate's stream, fold it with its decider's `evolve`, let `handle` (usually the decider's
 * `decide`) say what to record, check each event against the decider's recorded-event schema
 * (the one its readers parse with), and append with the revision that was read, with metadata
 * built in one place (events/metadata.ts). If someone else appended in between, the whole cycle
 * runs again on the fresh stream (deciders are pure, so that is safe), a few times before the
 * conflict is reported as `aborted`.
 *
 * An event its own readers would refuse is a bug of ours, never the caller's: the command fails
 * with `internal`, the log names the event and the field, and nothing is recorded (a recorded
 * one would stop every projection that reads it).
 */
import type { z } from 'zod';
import type { Decider, DomainEvent, EventSourced } from '../../events/decider.js';
import { DomainError } from '../../events/errors.js';
import { eventMetadata } from '../../events/metadata.js';
import type { Principal } from '../../events/principal.js';
import type { Position } from '../../events/position.js';
import type { IdGenerator } from '../clock.js';
import { WrongExpectedRevisionError, type EventStore } from '../../ports/event-store.js';

export type { Decider, EventSourced };

export interface CommandMetadata {
  principal: Principal | null;
  now: Date;
  correlationId: string;
  /** Id of this command, the causation of the events it produces. */
  commandId: string;
}

/** What running a command needs: the store and the ids of the events it appends. */
export interface CommandStore {
  store: EventStore;
  ids: IdGenerator;
}

export interface CommandOutcome<Event> {
  events: Event[];
  /** Global position of the last appended event; null when the command changed nothing. */
  position: Position | null;
  /** The stream's revision after the command (its last event's); null when the stream is empty. */
  revision: bigint | null;
}

export interface CommandOptions<State> {
  /**
   * Reads the current state without folding the whole stream (from a snapshot), with the
   * stream's revision (null: no stream yet). Without it, the stream is read from the start.
   * `attempt` counts from 1: a first attempt may answer a state kept in memory without reading
   * (the append checks the revision, and a stale one makes the next attempt read).
   */
  load?: (attempt: number) => Promise<{ state: State; revision: bigint | null }>;
  /**
   * Told the states after this command's append: each appended event's revision with the state
   * right after it (the events as the store keeps them, parsed with the decider's schema, as a
   * reader of the stream would).
   */
  appended?: (states: ReadonlyArray<{ state: State; revision: bigint }>) => void;
}

const MAX_ATTEMPTS = 4;

/** What the caller of a refused append is told; the log gets the event, the field and why. */
export const UNRECORDABLE_EVENT_MESSAGE = 'Internal error: this change could not be recorded. It was not saved; the team can see why in the log.';

/**
 * Runs `handle` against the aggregate `key` of `decider` and appends what it answers. `handle`
 * may throw a DomainError (refusals), or answer no events (nothing to do).
 */
export async function handleCommand<Event extends DomainEvent, State>(
  deps: CommandStore,
  decider: EventSourced<Event, State>,
  key: string,
  handle: (state: State) => Event[],
  metadata: CommandMetadata,
  options: CommandOptions<State> = {},
): Promise<CommandOutcome<Event>> {
  const stream = decider.streamId(key);
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = options.load ? await options.load(attempt) : await foldStream(deps.store, stream, decider);
    let events: Event[];
    try {
      events = handle(state);
    } catch (error) {
      // A first attempt may have decided on a state kept in memory: a refusal is only given on the stream as it is.
      if (attempt === 1 && options.load) continue;
      throw error;
    }
    if (events.length === 0) {
      if (attempt === 1 && options.load) continue;
      return { events, position: null, revision };
    }
    requireReadable(decider, stream, events);
    const recordedMetadata = eventMetadata(metadata);
    try {
      const result = await deps.store.append(
        stream,
        events.map((event) => ({ id: deps.ids.uuid(), type: event.type, data: event.data, metadata: recordedMetadata })),
        revision === null ? 'no_stream' : revision,
      );
      if (options.appended) {
        try {
          const states: Array<{ state: State; revision: bigint }> = [];
          let next = state;
          events.forEach((event, index) => {
            // As the store keeps it (JSON: no undefined members) and a reader parses it.
            next = decider.evolve(next, decider.schema.parse(JSON.parse(JSON.stringify({ type: event.type, data: event.data }))));
            states.push({ state: next, revision: result.nextRevision - BigInt(events.length - 1 - index) });
          });
          options.appended(states);
        } catch {
          // Only a state kept in memory misses it: the next load reads the stream.
        }
      }
      return { events, position: result.position, revision: result.nextRevision };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        throw new DomainError('aborted', 'Someone else changed this at the same time. Please try again.');
      }
    }
  }
}

/** Runs a command through its decider's `decide`, with the context the decider needs. */
export function decideCommand<Command, Event extends DomainEvent, State, Context>(
  deps: CommandStore,
  decider: Decider<Command, Event, State, Context>,
  key: string,
  command: Command,
  context: Context,
  metadata: CommandMetadata,
  options: CommandOptions<State> = {},
): Promise<CommandOutcome<Event>> {
  return handleCommand(deps, decider, key, (state) => decider.decide(command, state, context), metadata, options);
}

/** Every event parses with the decider's recorded-event schema, or none is appended. */
function requireReadable<Event extends DomainEvent>(decider: EventSourced<Event, unknown>, stream: string, events: readonly Event[]): void {
  events.forEach((event, index) => {
    const parsed = decider.eventTypes.has(event.type) ? decider.schema.safeParse(event) : null;
    if (parsed?.success) return;
    const issue = parsed ? deepestIssue(parsed.error.issues, []) : null;
    const field = issue ? issue.path.map(String).join('.') : 'type';
    const problem = issue ? issue.message : `is not an event of ${decider.name}`;
    throw new DomainError('internal', UNRECORDABLE_EVENT_MESSAGE, {
      reason: `${decider.name}: the ${event.type} event would not be read back (${field}: ${problem}); nothing was recorded`,
      aggregate: decider.name,
      stream,
      eventType: event.type,
      eventIndex: index,
      field,
      problem,
    });
  });
}

/**
 * The issue that names the field most precisely: a union (the map's events) refuses with one
 * issue per branch, and the branch of the event's own type goes deepest into its data.
 */
function deepestIssue(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[]): { path: PropertyKey[]; message: string } | null {
  let best: { path: PropertyKey[]; message: string } | null = null;
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    const candidates = issue.code === 'invalid_union' ? issue.errors.map((branch) => deepestIssue(branch, path)) : [{ path, message: issue.message }];
    for (const candidate of candidates) if (candidate && (!best || candidate.path.length > best.path.length)) best = candidate;
  }
  return best;
}

/** The state from the stream's first event to its last, and its revision (null: no stream). */
export async function foldStream<Event extends DomainEvent, State>(
  store: EventStore,
  stream: string,
  decider: EventSourced<Event, State>,
): Promise<{ state: State; revision: bigint | null }> {
  const recorded = await store.readStream(stream);
  let state = decider.initialState;
  for (const record of recorded) {
    if (!decider.eventTypes.has(record.type)) continue;
    state = decider.evolve(state, decider.schema.parse({ type: record.type, data: record.data }));
  }
  return { state, revision: recorded.length === 0 ? null : recorded[recorded.length - 1]!.revision };
}
