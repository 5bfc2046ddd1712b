/**
 * Drafts, review and scheduled publishing (issue 27; events/map-publishing.ts): the callable
 * functions' payloads and results, and what `GET /api/maps/{id}/publication` answers. The
 * single source of truth for the server's validation and the client's types.
 */
import { z } from 'zod';
import { PublishMode } from './map-publishing.js';

const MapId = z.string({ error: 'Map id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Map id is not valid.');
const Revision = z.string({ error: 'Revision must be a whole number, as text.' }).regex(/^\d{1,15}$/, 'Revision must be a whole number, as text.');

export const publishingFunctionPayloads = {
  /** "Publish edits: At once | When we publish" (the owner's). */
  setMapPublishMode: z.object({ mapId: MapId, mode: z.enum(PublishMode.options, { error: 'Mode must be live or manual.' }) }),
  /**
   * Publishes the map as of `revision` (the current one when omitted; an earlier one rolls back),
   * now, or at `at` when that is later (a schedule, replacing any earlier one).
   */
  publishMapChanges: z.object({
    mapId: MapId,
    revision: Revision.optional(),
    at: z.iso.datetime({ offset: true, error: 'Give the date and time as an ISO 8601 timestamp.' }).optional(),
  }),
  cancelMapPublishSchedule: z.object({ mapId: MapId }),
} as const;

export interface PublishingFunctionResults {
  setMapPublishMode: null;
  publishMapChanges: null;
  cancelMapPublishSchedule: null;
}

export const publishingFunctionResults = {
  setMapPublishMode: z.null(),
  publishMapChanges: z.null(),
  cancelMapPublishSchedule: z.null(),
} satisfies { [N in keyof PublishingFunctionResults]: z.ZodType<PublishingFunctionResults[N]> };

/** A map's publishing as its editors see it (`GET /api/maps/{id}/publication`). */
export const MapPublication = z.object({
  mode: PublishMode,
  /** The stream's revision now (decimal). */
  revision: z.string(),
  /** The revision of the last change of the document (decimal). */
  lastChangeRevision: z.string(),
  /** The revision the public sees: the current one on a live map; null: not public yet. */
  publishedRevision: z.string().nullable(),
  publishedAt: z.string().nullable(),
  publishedBy: z.string().nullable(),
  scheduled: z.object({ revision: z.string(), publishAt: z.string(), by: z.string() }).nullable(),
  /** Whether the caller may publish (the owner, and admins). */
  canPublish: z.boolean(),
  /** The map's saved versions, newest first: what "Roll back" offers. */
  versions: z.array(z.object({ id: z.string(), name: z.string().optional(), revision: z.string(), created: z.string() })),
});
export type MapPublication = z.infer<typeof MapPublication>;
