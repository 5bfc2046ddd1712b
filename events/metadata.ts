import { z } from 'zod';

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
