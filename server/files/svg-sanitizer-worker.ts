/**
 * The body of the SVG sanitiser's worker thread (svg-sanitizer-pool.ts): one message in, the
 * sanitised SVG (or why it was refused) out. Started through svg-sanitizer-worker.mjs.
 */
import { parentPort } from 'node:worker_threads';
import type { RemovedPart } from '../../events/files-api.js';
import { sanitizeSvg, SvgRejectedError } from './sanitize-svg.js';

export interface SanitizeRequest {
  id: number;
  text: string;
}

/** Sent once, when the modules are loaded and the sanitiser's document is made. */
export interface WorkerReady {
  ready: true;
}

export type SanitizeAnswer =
  | { id: number; ok: true; svg: string; width: number; height: number; removed: RemovedPart[] }
  | { id: number; ok: false; rejected: boolean; message: string };

parentPort?.on('message', ({ id, text }: SanitizeRequest) => {
  let answer: SanitizeAnswer;
  try {
    answer = { id, ok: true, ...sanitizeSvg(text) };
  } catch (error) {
    answer = { id, ok: false, rejected: error instanceof SvgRejectedError, message: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});

// Warm up (jsdom's window is made on first use), then say so: time limits start from here.
sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>');
parentPort?.postMessage({ ready: true } satisfies WorkerReady);
