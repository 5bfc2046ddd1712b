/**
 * What the history and audit routes answer (issue 8): a map's events in words, page by page,
 * and the map as it was at any revision. Typed once for the server and the client.
 */
import { z } from 'zod';
import { MapDocument } from './map-document.js';

/** One event of a map's stream, as an auditor reads it. */
export const TimelineItem = z.object({
  /** The stream revision of the event (decimal). */
  revision: z.string(),
  /** The event's type (`LocationMoved`, `VersionSaved`, ...). */
  type: z.string(),
  /** When it was recorded (ISO 8601). */
  at: z.string(),
  /** Who did it: the user's id and name, or the product itself (uid null). */
  actor: z.object({ uid: z.string().nullable(), name: z.string() }),
  /** What happened, in words: "Ana moved “Cafe” on Floor 2". */
  summary: z.string(),
  /** The locations the event touched (for highlighting). */
  locationIds: z.array(z.string()),
  /** A history entry the event made, renamed, deleted or restored. */
  historyId: z.string().optional(),
});
export type TimelineItem = z.infer<typeof TimelineItem>;

/** A page of the timeline, newest first; `next` asks for the older page (`?before=`). */
export const TimelinePage = z.object({
  items: z.array(TimelineItem),
  /** How many events the stream holds (its last revision + 1). */
  total: z.number().int(),
  next: z.string().nullable(),
});
export type TimelinePage = z.infer<typeof TimelinePage>;

/** The map as it was right after the event at `revision`. */
export const MapAtRevision = z.object({
  revision: z.string(),
  title: z.string(),
  document: MapDocument,
});
export type MapAtRevision = z.infer<typeof MapAtRevision>;
