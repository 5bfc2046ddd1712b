/**
 * The shape every aggregate exports (emmett's decider): how its stream is named, the schema
 * its recorded events are read with, and `initialState`, `evolve`, `decide`. The one command
 * handler (server/commands/command-handler.ts) takes such an object, so no call site assembles
 * a decider by hand, and the schema it checks events with before appending them is the very
 * one the projections and the deciders' own folds read them with.
 */
import type { z } from 'zod';

/** What every recorded event is: a type and its data (the stream's metadata is apart). */
export interface DomainEvent {
  type: string;
  data: unknown;
}

export interface Decider<Command, Event extends DomainEvent, State, Context> {
  /** The aggregate's name, for log lines. */
  name: string;
  /** The stream of one aggregate, from its key (a map id, a uid, a purchase code). */
  streamId(key: string): string;
  /**
   * The recorded-event schema: readers (projections, the fold below) parse with it, and the
   * command handler parses every event with it before it is appended.
   */
  schema: z.ZodType<Event>;
  /** The event types of this aggregate on its stream (a fold skips any other). */
  eventTypes: ReadonlySet<string>;
  initialState: State;
  evolve(state: State, event: Event): State;
  /** Pure: what the command records against this state, or a DomainError. */
  decide(command: Command, state: State, context: Context): Event[];
}

/** The part of a decider the command handler needs to fold a stream and check what it appends. */
export type EventSourced<Event extends DomainEvent, State> = Pick<
  Decider<unknown, Event, State, unknown>,
  'name' | 'streamId' | 'schema' | 'eventTypes' | 'initialState' | 'evolve'
>;
