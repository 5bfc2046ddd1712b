/**
 * Uploading a file (a floor plan or an image): the server's limits and the upload itself, used
 * by the new-map page and the editor's floors panel. The upload sends the file's bytes with
 * XMLHttpRequest, the one browser API that reports upload progress, and maps its failures to
 * the app's error catalogue.
 */
import { z } from 'zod';
import { codeForStatus } from '../../../../events/errors';
import { StoredFileAnswer } from '../../../../events/files-api';
import { formatBytes } from '../../utils/format-bytes';
import { api as defaultApi, ApiError, NETWORK_ERROR_MESSAGE, type ApiClient, type RequestOptions } from '../api';

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

/** Uploads can be slow on a poor connection: far longer than a function call's limit. */
export const UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

export interface UploadOptions {
  /** Called with the share of the bytes sent, 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** A bearer token (Clerk mode); without one the session cookie goes along. */
  token?: string | null;
  /** Where to send it; the same origin by default. */
  baseUrl?: string;
}

function messageOf(text: string): string | null {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    return typeof body.error?.message === 'string' && body.error.message.trim() ? body.error.message : null;
  } catch {
    return null;
  }
}

/** Sends a file's bytes to `POST /api/files`; resolves to what was stored, rejects with an {@link ApiError}. */
export function uploadFile(file: Blob, options: UploadOptions = {}): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${options.baseUrl ?? ''}/api/files`);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    // The server finds the type in the bytes; the name and the browser's guess are not sent.
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    if (options.token) xhr.setRequestHeader('authorization', `Bearer ${options.token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    const onAbort = () => xhr.abort();
    options.signal?.addEventListener('abort', onAbort);
    const settle = () => options.signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      settle();
      if (xhr.status < 200 || xhr.status >= 300) {
        const code = codeForStatus(xhr.status);
        reject(new ApiError(code, messageOf(xhr.responseText) ?? 'The file could not be uploaded.', xhr.status));
        return;
      }
      try {
        const body = JSON.parse(xhr.responseText) as { result?: unknown };
        const parsed = UploadedFile.safeParse(body.result);
        if (parsed.success) {
          options.onProgress?.(1);
          resolve(parsed.data);
          return;
        }
      } catch {
        // Answered below.
      }
      reject(new ApiError('internal', 'The server sent an answer this page does not understand. Reload the page.', xhr.status));
    };
    xhr.onerror = () => {
      settle();
      reject(new ApiError('internal', NETWORK_ERROR_MESSAGE, 0));
    };
    xhr.ontimeout = () => {
      settle();
      reject(new ApiError('deadline-exceeded', 'The upload took too long. Try again on a faster connection.', 0));
    };
    xhr.onabort = () => {
      settle();
      reject(new ApiError('cancelled', 'The upload was cancelled.', 0));
    };
    if (options.signal?.aborted) {
      xhr.abort();
      return;
    }
    xhr.send(file);
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
