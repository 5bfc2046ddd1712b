/**
 * The file routes' request shapes shared by the server and the client (server/routes/
 * file-routes.ts): what `POST /api/files/from-url` takes in its `{data}`.
 */
import { z } from 'zod';

/** A drawing on another site, for the server to fetch once, check like an upload and store. */
export const FileFromUrl = z.object({
  url: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(2000, 'must be at most 2000 characters'),
});
export type FileFromUrl = z.infer<typeof FileFromUrl>;

/**
 * Something the SVG sanitiser took out of an upload, by kind (`embedded images`, `scripts`,
 * `editor data`…), with how many and a sentence for the uploader ("45 embedded images were
 * removed for safety; upload them as separate images.").
 */
export const RemovedPart = z.object({ what: z.string(), count: z.number().int(), message: z.string() });
export type RemovedPart = z.infer<typeof RemovedPart>;

/** What an upload (or a copy from an address) answers: the stored file. */
export const StoredFileAnswer = z.object({
  id: z.string(),
  /** Where it is served (`/files/{id}`): what a floor's file names. */
  url: z.string(),
  kind: z.enum(['svg', 'image']),
  contentType: z.string(),
  width: z.number(),
  height: z.number(),
  size: z.number().int(),
  /** What the sanitiser removed from an SVG (never silently); empty for images and clean SVGs. */
  removed: z.array(RemovedPart).default([]),
});
export type StoredFileAnswer = z.infer<typeof StoredFileAnswer>;
