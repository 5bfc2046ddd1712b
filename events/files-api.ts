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
