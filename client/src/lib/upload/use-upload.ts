/**
 * One file upload at a time, with its progress: start one, cancel it, wait for it (the Create
 * button waits for an upload still on its way), or clear it. A new upload cancels the last.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { toApiError } from '../api';
import { clerkSessionToken, tooLargeMessage, uploadFile, type UploadedFile } from './upload-api';

export type UploadState =
  | { status: 'idle' }
  | { status: 'uploading'; name: string; size: number; progress: number }
  | { status: 'done'; name: string; file: UploadedFile }
  | { status: 'failed'; name: string | null; message: string };

export interface UseUploadOptions {
  maxBytes: number;
  /** Clerk mode sends a bearer token; the local mode the session cookie. */
  useBearerToken: boolean;
}

export interface Upload {
  state: UploadState;
  start(file: File): Promise<UploadedFile | null>;
  /** The upload on its way (or done), or null when there is none. */
  wait(): Promise<UploadedFile | null>;
  cancel(): void;
  clear(): void;
}

export function useUpload({ maxBytes, useBearerToken }: UseUploadOptions): Upload {
  const [state, setState] = useState<UploadState>({ status: 'idle' });
  const pending = useRef<Promise<UploadedFile | null> | null>(null);
  const controller = useRef<AbortController | null>(null);
  // Which upload is current: answers of an older one are dropped.
  const generation = useRef(0);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    (file: File) => {
      controller.current?.abort();
      const run = ++generation.current;
      const current = () => run === generation.current;
      const name = file.name || 'file';
      if (file.size === 0) {
        setState({ status: 'failed', name, message: 'The file is empty.' });
        pending.current = Promise.resolve(null);
        return pending.current;
      }
      if (file.size > maxBytes) {
        setState({ status: 'failed', name, message: tooLargeMessage(maxBytes) });
        pending.current = Promise.resolve(null);
        return pending.current;
      }
      const abort = new AbortController();
      controller.current = abort;
      setState({ status: 'uploading', name, size: file.size, progress: 0 });
      let lastShown = 0;
      const promise = (async () => {
        try {
          const token = useBearerToken ? await clerkSessionToken() : null;
          const uploaded = await uploadFile(file, {
            signal: abort.signal,
            token,
            onProgress: (progress) => {
              // A re-render per percent is plenty.
              if (!current() || progress - lastShown < 0.01) return;
              lastShown = progress;
              setState({ status: 'uploading', name, size: file.size, progress });
            },
          });
          if (current()) setState({ status: 'done', name, file: uploaded });
          return uploaded;
        } catch (failure) {
          const error = toApiError(failure);
          if (current()) {
            setState(error.code === 'cancelled' ? { status: 'idle' } : { status: 'failed', name, message: error.message });
          }
          return null;
        } finally {
          if (controller.current === abort) controller.current = null;
        }
      })();
      pending.current = promise;
      return promise;
    },
    [maxBytes, useBearerToken],
  );

  const wait = useCallback(() => pending.current ?? Promise.resolve(null), []);

  const cancel = useCallback(() => {
    generation.current++;
    controller.current?.abort();
    pending.current = null;
    setState({ status: 'idle' });
  }, []);

  return { state, start, wait, cancel, clear: cancel };
}
