/**
 * Sanitising a large SVG takes time and memory (jsdom builds the whole document: a 10 MB
 * drawing of 50,000 shapes takes seconds and hundreds of megabytes). It runs in a worker
 * thread, so the server keeps answering meanwhile: one file at a time, each with a time limit,
 * the worker with a memory limit. A worker that runs out of either is ended and the file
 * refused as too complex; the next file gets a new worker.
 */
import { Worker } from 'node:worker_threads';
import { DomainError } from '../../events/errors.js';
import { SvgRejectedError, type SanitizedSvg } from './sanitize-svg.js';
import type { SanitizeAnswer } from './svg-sanitizer-worker.js';

export interface SvgSanitizer {
  sanitize(text: string): Promise<SanitizedSvg>;
  close(): Promise<void>;
}

export interface WorkerSvgSanitizerOptions {
  /** Longest time one file may take. */
  timeoutMs?: number;
  /** The worker's heap limit. */
  maxMemoryMb?: number;
  /** Files waiting their turn beyond this are refused as `unavailable` (try again soon). */
  maxWaiting?: number;
}

export const TOO_COMPLEX = 'The SVG is too complex to check. Simplify the drawing, or upload it as a PNG or JPEG image.';
export const BUSY = 'Many files are being checked right now. Try again in a minute.';

const WORKER_ENTRY = new URL('./svg-sanitizer-worker.mjs', import.meta.url);

export class WorkerSvgSanitizer implements SvgSanitizer {
  private worker: Worker | null = null;
  /** Resolves once the current worker has started (loading its modules takes a second). */
  private online: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private nextId = 1;
  private closed = false;
  private readonly timeoutMs: number;
  private readonly maxMemoryMb: number;
  private readonly maxWaiting: number;

  constructor(options: WorkerSvgSanitizerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxMemoryMb = options.maxMemoryMb ?? 1536;
    this.maxWaiting = options.maxWaiting ?? 16;
  }

  sanitize(text: string): Promise<SanitizedSvg> {
    if (this.closed) return Promise.reject(new DomainError('unavailable', 'The server is shutting down.'));
    if (this.waiting >= this.maxWaiting) return Promise.reject(new DomainError('unavailable', BUSY));
    this.waiting++;
    const run = this.queue.then(() => this.runOne(text)).finally(() => this.waiting--);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(WORKER_ENTRY, { resourceLimits: { maxOldGenerationSizeMb: this.maxMemoryMb } });
    // An idle worker does not keep the process alive.
    worker.unref();
    worker.on('error', () => undefined);
    worker.on('exit', () => {
      if (this.worker === worker) {
        this.worker = null;
        this.online = null;
      }
    });
    this.worker = worker;
    this.online = new Promise<void>((resolve, reject) => {
      const onReady = (message: { ready?: boolean }) => {
        if (!message.ready) return;
        worker.off('message', onReady);
        resolve();
      };
      worker.on('message', onReady);
      worker.once('error', reject);
      worker.once('exit', () => reject(new Error('The SVG sanitiser could not start.')));
    });
    // Nobody may be waiting when it fails: that is no unhandled rejection.
    this.online.catch(() => undefined);
    return worker;
  }

  private async runOne(text: string): Promise<SanitizedSvg> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    // The time limit is for the file, not for starting the worker.
    worker.ref();
    await this.online;
    return new Promise<SanitizedSvg>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        worker.unref();
      };
      const fail = (error: Error) => {
        done();
        if (this.worker === worker) {
          this.worker = null;
          this.online = null;
        }
        void worker.terminate();
        reject(error);
      };
      const onMessage = (answer: SanitizeAnswer | { ready: true }) => {
        if (!('id' in answer) || answer.id !== id) return;
        done();
        if (answer.ok) resolve({ svg: answer.svg, width: answer.width, height: answer.height });
        else reject(answer.rejected ? new SvgRejectedError(answer.message) : new Error(answer.message));
      };
      const onError = (error: Error & { code?: string }) =>
        fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new SvgRejectedError(TOO_COMPLEX) : error);
      const onExit = () => fail(new SvgRejectedError(TOO_COMPLEX));
      const timer = setTimeout(() => fail(new SvgRejectedError(TOO_COMPLEX)), this.timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, text });
    });
  }
}

/** The same work on the calling thread: for small, trusted input and for tests. */
export function inlineSvgSanitizer(sanitize: (text: string) => SanitizedSvg): SvgSanitizer {
  return {
    sanitize: async (text) => sanitize(text),
    close: async () => undefined,
  };
}
