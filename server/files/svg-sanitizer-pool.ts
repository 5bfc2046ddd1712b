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
 *
 * The worker's lifecycle (start, time limit, failure, a new worker, exit when idle) is the one
 * the worker pools share: server/workers/on-demand-worker.ts.
 */
import { DomainError } from '../../events/errors.js';
import { SvgRejectedError, type SanitizedSvg } from './sanitize-svg.js';
import { OnDemandWorker, refuseAs, type WorkerLimits } from '../workers/on-demand-worker.js';
import type { SanitizeAnswer, SanitizeRequest } from './svg-sanitizer-worker.js';

export interface SvgSanitizer {
  sanitize(text: string): Promise<SanitizedSvg>;
  close(): Promise<void>;
}

export interface WorkerSvgSanitizerOptions extends WorkerLimits {
  /** Files waiting their turn beyond this are refused as `unavailable` (try again soon). */
  maxWaiting?: number;
}

export const TOO_COMPLEX = 'The SVG is too complex to check. Simplify the drawing, or upload it as a PNG or JPEG image.';
export const BUSY = 'Many files are being checked right now. Try again in a minute.';

const WORKER_ENTRY = new URL('./svg-sanitizer-worker.mjs', import.meta.url);

export class WorkerSvgSanitizer implements SvgSanitizer {
  private readonly worker: OnDemandWorker<SanitizeRequest, SanitizeAnswer>;
  private queue: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private closed = false;
  private readonly maxWaiting: number;

  constructor(options: WorkerSvgSanitizerOptions = {}) {
    this.maxWaiting = options.maxWaiting ?? 16;
    this.worker = new OnDemandWorker({
      entry: WORKER_ENTRY,
      limits: options,
      defaults: { timeoutMs: 60_000, maxMemoryMb: 1536, idleMs: 60_000 },
      lostError: refuseAs(() => new SvgRejectedError(TOO_COMPLEX)),
      // Loading jsdom takes a second: the time limit is for the file, not for starting the worker.
      waitsForReady: true,
      busy: () => this.waiting > 0,
    });
  }

  /** Whether a worker thread is running now (it starts with a file and ends when idle). */
  get running(): boolean {
    return this.worker.running;
  }

  sanitize(text: string): Promise<SanitizedSvg> {
    if (this.closed) return Promise.reject(new DomainError('unavailable', 'The server is shutting down.'));
    if (this.waiting >= this.maxWaiting) return Promise.reject(new DomainError('unavailable', BUSY));
    this.waiting++;
    // One file at a time: each file's time limit is its own.
    const run = this.queue
      .then(() => this.worker.ask({ text }))
      .then((answer) => {
        if (answer.ok) return { svg: answer.svg, width: answer.width, height: answer.height, removed: answer.removed };
        throw answer.rejected ? new SvgRejectedError(answer.message) : new Error(answer.message);
      })
      .finally(() => {
        this.waiting--;
        if (this.waiting === 0) this.worker.exitWhenIdle();
      });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker.close();
  }
}

/** The same work on the calling thread: for small, trusted input and for tests. */
export function inlineSvgSanitizer(sanitize: (text: string) => SanitizedSvg): SvgSanitizer {
  return {
    sanitize: async (text) => sanitize(text),
    close: async () => undefined,
  };
}
