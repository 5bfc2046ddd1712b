/**
 * A POST of a file's bytes (or a form of files) that reports upload progress: XMLHttpRequest,
 * the one browser API that does. Uploads (`POST /api/files`) and imports
 * (`POST /api/maps/{id}/import`) both send through it; their answers are checked against the
 * server's own schema, and every failure becomes an {@link ApiError} in the catalogue's terms,
 * in the server's words where it gave some.
 */
import type { z } from 'zod';
import { codeForStatus } from '../../../../events/errors';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../api';

/** Uploads can be slow on a poor connection: far longer than a function call's limit. */
export const UPLOAD_TIMEOUT_MS = 10 * 60 * 1000;

export interface SendOptions<T> {
  url: string;
  body: Blob | FormData;
  /** The body's type; a form's is the browser's (with its boundary). */
  contentType?: string;
  /** A bearer token (Clerk mode); without one the session cookie goes along. */
  token?: string | null;
  /** What a success answers, as `{result}`. */
  schema: z.ZodType<T>;
  /** Called with the share of the bytes sent, 0 to 1. */
  onProgress?: (fraction: number) => void;
  /** Every byte is sent: the server is reading it now. */
  onUploaded?: () => void;
  signal?: AbortSignal;
  /** The words for what is being sent ("The file could not be uploaded.", …). */
  messages: { failed: string; timeout: string; cancelled: string };
}

/** The server's own message in an error answer, if it gave one. */
function messageOf(text: string): string | null {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    return typeof body.error?.message === 'string' && body.error.message.trim() ? body.error.message : null;
  } catch {
    return null;
  }
}

export function sendWithProgress<T>(options: SendOptions<T>): Promise<T> {
  const { messages, signal } = options;
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', options.url);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    if (options.contentType) xhr.setRequestHeader('content-type', options.contentType);
    if (options.token) xhr.setRequestHeader('authorization', `Bearer ${options.token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) options.onProgress?.(event.loaded / event.total);
    };
    xhr.upload.onload = () => {
      options.onProgress?.(1);
      options.onUploaded?.();
    };
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort);
    const settle = () => signal?.removeEventListener('abort', onAbort);
    xhr.onload = () => {
      settle();
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new ApiError(codeForStatus(xhr.status), messageOf(xhr.responseText) ?? messages.failed, xhr.status));
        return;
      }
      try {
        const answer = JSON.parse(xhr.responseText) as { result?: unknown };
        const parsed = options.schema.safeParse(answer.result);
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
      reject(new ApiError('deadline-exceeded', messages.timeout, 0));
    };
    xhr.onabort = () => {
      settle();
      reject(new ApiError('cancelled', messages.cancelled, 0));
    };
    if (signal?.aborted) {
      xhr.abort();
      return;
    }
    xhr.send(options.body);
  });
}
