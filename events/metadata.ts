import { z } from 'zod';
import { truncateText } from './safe-text.js';

/** Metadata every recorded event carries: who, when, and which request and event led to it. */
export const EventMetadata = z.object({
  /** The acting user's uid, or null for the system (reactors, migrations). */
  userId: z.string().min(1).nullable(),
  /** The acting user's display name when it happened, for the audit log in words. */
  userName: z.string().max(200).optional(),
  /** ISO 8601 time the command was decided. */
  at: z.iso.datetime({ offset: true }),
  /** Ties together everything that one user action caused. */
  correlationId: z.string().min(1),
  /** The id of the command or event that directly caused this one. */
  causationId: z.string().min(1),
});
export type EventMetadata = z.infer<typeof EventMetadata>;

/** Who runs a command and when, with the ids that tie its events to the request that asked. */
export interface CommandActor {
  principal: { uid: string; displayName: string } | null;
  now: Date;
  correlationId: string;
  /** Id of this command, the causation of the events it produces. */
  commandId: string;
}

/**
 * The metadata of every event a command records: built here and nowhere else, so a system
 * actor (a seed, a webhook) and a user's edit carry the same fields the same way.
 */
export function eventMetadata(meta: CommandActor): EventMetadata {
  return {
    userId: meta.principal?.uid ?? null,
    ...(meta.principal?.displayName ? { userName: truncateText(meta.principal.displayName, 200) } : {}),
    at: meta.now.toISOString(),
    correlationId: meta.correlationId,
    causationId: meta.commandId,
  };
}
