/**
 * Runs one command against one stream: load the stream, fold it with `evolve`, `decide`,
 * append with the revision that was read. If someone else appended in between, the whole
 * cycle runs again on the fresh stream (deciders are pure, so that is safe), a few times
 * before the conflict is reported as `aborted`.
 */
import { DomainError } from '../../events/errors.js';
import type { Principal } from '../../events/principal.js';
import type { Position } from '../../events/position.js';
import type { IdGenerator } from '../clock.js';
import { WrongExpectedRevisionError, type EventStore, type RecordedEvent } from '../../ports/event-store.js';

export interface Decider<Command, Event extends { type: string; data: unknown }, State> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State): Event[];
  /** Turns a stored event back into a domain event (validates it). */
  parse(recorded: RecordedEvent): Event | null;
  /**
   * Reads the current state without folding the whole stream (from a snapshot), with the
   * stream's revision (null: no stream yet). Without it, the stream is read from the start.
   */
  load?(): Promise<{ state: State; revision: bigint | null }>;
}

export interface CommandMetadata {
  principal: Principal | null;
  now: Date;
  correlationId: string;
  /** Id of this command, the causation of the events it produces. */
  commandId: string;
}

export interface CommandOutcome<Event> {
  events: Event[];
  /** Global position of the last appended event; null when the command changed nothing. */
  position: Position | null;
  /** The stream's revision after the command (its last event's); null when the stream is empty. */
  revision: bigint | null;
}

const MAX_ATTEMPTS = 4;

export async function handleCommand<Command, Event extends { type: string; data: unknown }, State>(
  store: EventStore,
  ids: IdGenerator,
  stream: string,
  decider: Decider<Command, Event, State>,
  command: Command,
  metadata: CommandMetadata,
): Promise<CommandOutcome<Event>> {
  for (let attempt = 1; ; attempt++) {
    const { state, revision } = decider.load ? await decider.load() : await foldStream(store, stream, decider);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, position: null, revision };
    const expected = revision === null ? ('no_stream' as const) : revision;
    try {
      const result = await store.append(
        stream,
        events.map((event) => ({
          id: ids.uuid(),
          type: event.type,
          data: event.data,
          metadata: {
            userId: metadata.principal?.uid ?? null,
            ...(metadata.principal?.displayName ? { userName: metadata.principal.displayName.slice(0, 200) } : {}),
            at: metadata.now.toISOString(),
            correlationId: metadata.correlationId,
            causationId: metadata.commandId,
          },
        })),
        expected,
      );
      return { events, position: result.position, revision: result.nextRevision };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      if (attempt >= MAX_ATTEMPTS) {
        throw new DomainError('aborted', 'Someone else changed this at the same time. Please try again.');
      }
    }
  }
}

/** The state from the stream's first event to its last, and its revision (null: no stream). */
async function foldStream<Command, Event extends { type: string; data: unknown }, State>(
  store: EventStore,
  stream: string,
  decider: Decider<Command, Event, State>,
): Promise<{ state: State; revision: bigint | null }> {
  const recorded = await store.readStream(stream);
  let state = decider.initialState;
  for (const record of recorded) {
    const event = decider.parse(record);
    if (event) state = decider.evolve(state, event);
  }
  return { state, revision: recorded.length === 0 ? null : recorded[recorded.length - 1]!.revision };
}
