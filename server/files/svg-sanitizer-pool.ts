/**
 * Sanitising a large SVG takes time and memory (jsdom builds the whole document: a 10 MB
 * drawing of 50,000 shapes takes seconds and hundreds of megabytes). It runs in a worker
 * thread, so the server keeps answering meanwhile: one file at a time, each with a time limit,
 * the worker with a memory limit. A worker that runs out of either is ended and the file
 * refused as too complex; the next file gets a new worker.
 *
 * The worker starts with the first file, not with the server (loading jsdom into it takes
 * about a second and some 100 MB), and ends once it has had nothing to do for a while
 * (`idleMs`): most of a server's life no one is uploading a drawing.
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
  /** How long the worker waits for another file before it ends (the next file starts a new one). */
  idleMs?: number;
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
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly timeoutMs: number;
  private readonly maxMemoryMb: number;
  private readonly maxWaiting: number;
  private readonly idleMs: number;

  constructor(options: WorkerSvgSanitizerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.maxMemoryMb = options.maxMemoryMb ?? 1536;
    this.maxWaiting = options.maxWaiting ?? 16;
    this.idleMs = options.idleMs ?? 60_000;
  }

  /** Whether a worker thread is running now (it starts with a file and ends when idle). */
  get running(): boolean {
    return this.worker !== null;
  }

  sanitize(text: string): Promise<SanitizedSvg> {
    if (this.closed) return Promise.reject(new DomainError('unavailable', 'The server is shutting down.'));
    if (this.waiting >= this.maxWaiting) return Promise.reject(new DomainError('unavailable', BUSY));
    this.waiting++;
    this.cancelIdleExit();
    const run = this.queue
      .then(() => this.runOne(text))
      .finally(() => {
        this.waiting--;
        if (this.waiting === 0) this.exitWhenIdle();
      });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelIdleExit();
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  /** Ends the worker after `idleMs` unless another file comes first. */
  private exitWhenIdle(): void {
    this.cancelIdleExit();
    const worker = this.worker;
    if (!worker) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.waiting > 0 || this.worker !== worker) return;
      this.worker = null;
      this.online = null;
      void worker.terminate();
    }, this.idleMs);
    // Waiting to end the worker is no reason to keep the process alive.
    this.idleTimer.unref();
  }

  private cancelIdleExit(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
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
        if (answer.ok) resolve({ svg: answer.svg, width: answer.width, height: answer.height, removed: answer.removed });
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
