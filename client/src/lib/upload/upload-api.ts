/**
 * Uploading a file (a floor plan or an image): the server's limits and the upload itself, used
 * by the new-map page and the editor's floors panel. The upload sends the file's bytes with
 * XMLHttpRequest, the one browser API that reports upload progress, and maps its failures to
 * the app's error catalogue.
 */
import { z } from 'zod';
import { StoredFileAnswer } from '../../../../events/files-api';
import { formatBytes } from '../../utils/format-bytes';
import { api as defaultApi, type ApiClient, type RequestOptions } from '../api';
import { sendWithProgress } from './send-with-progress';

/** File types the file picker offers (the server decides by the content in the end). */
export const ACCEPT = '.svg,.png,.jpg,.jpeg,.webp,image/svg+xml,image/png,image/jpeg,image/webp';

/** The upload limit before the server has said (UPLOAD_LIMIT's default). */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

/** The server's own words for a file over the limit, so the message is the same either way. */
export function tooLargeMessage(maxBytes: number): string {
  return `The file is too large (the limit is ${formatBytes(maxBytes)}).`;
}

export const UploadLimits = z.object({ maxBytes: z.number(), types: z.array(z.string()) });
export type UploadLimits = z.infer<typeof UploadLimits>;

/** What an upload answers: the stored file (the server's own schema, events/files-api.ts). */
export const UploadedFile = StoredFileAnswer;
export type UploadedFile = z.infer<typeof UploadedFile>;

export function getUploadLimits(api: ApiClient = defaultApi, options?: RequestOptions) {
  return api.get('/api/files/limits', UploadLimits, options);
}

export { UPLOAD_TIMEOUT_MS } from './send-with-progress';

export interface UploadOptions {
  /** Called with the share of the bytes sent, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** A bearer token (Clerk mode); without one the session cookie goes along. */
  token?: string | null;
  /** Where to send it; the same origin by default. */
  baseUrl?: string;
}

/** Sends a file's bytes to `POST /api/files`; resolves to what was stored, rejects with an {@link ApiError}. */
export function uploadFile(file: Blob, options: UploadOptions = {}): Promise<UploadedFile> {
  return sendWithProgress({
    url: `${options.baseUrl ?? ''}/api/files`,
    body: file,
    // The server finds the type in the bytes; the name and the browser's guess are not sent.
    contentType: 'application/octet-stream',
    token: options.token ?? null,
    schema: UploadedFile,
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    messages: {
      failed: 'The file could not be uploaded.',
      timeout: 'The upload took too long. Try again on a faster connection.',
      cancelled: 'The upload was cancelled.',
    },
  });
}

/**
 * Clerk mode's current session token, read from Clerk's browser SDK (which the Clerk root has
 * loaded), for the one request the ApiClient cannot make: a binary upload.
 */
export async function clerkSessionToken(): Promise<string | null> {
  const clerk = (globalThis as { Clerk?: { session?: { getToken?: () => Promise<string | null> } | null } }).Clerk;
  try {
    return (await clerk?.session?.getToken?.()) ?? null;
  } catch {
    return null;
  }
}
