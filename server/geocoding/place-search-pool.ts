/**
 * Where a visitor's "near …" searches are answered (issue 29 item 4): one worker thread
 * (place-search-worker.ts) holding the embedded gazetteer, started by the first search and
 * ended after `idleMs` without one, so an idle server holds none of its 130 MB. Its own
 * thread, not the import planner's: a visitor's search never waits behind a customer's
 * 50 MB import. Searches are answered in the order asked; a few dozen at once at most (the
 * next is refused as busy rather than queued without end); one that takes too long ends the
 * worker and the next search starts another.
 */
import { Worker } from 'node:worker_threads';
import { DomainError } from '../../events/errors.js';
import type { LatLngPoint } from '../../events/geocoding.js';
import type { PlaceMatch } from '../../events/place-search.js';
import type { PlaceSearchReply, PlaceSearchRequest } from './place-search-worker.js';

export const PLACE_SEARCH_BUSY = 'Many places are being looked up right now. Try again in a moment.';

export interface PlaceSearcher {
  /** The places `query` may mean, the likeliest first; `near`: where the visitor is looking. */
  search(query: string, near: LatLngPoint | null): Promise<PlaceMatch[]>;
  close(): Promise<void>;
}

export interface PlaceSearchPoolOptions {
  /** Searches waiting at once; one more is refused as resource-exhausted. */
  maxWaiting?: number;
  /** Longest one search may take, the gazetteer's first build included. */
  timeoutMs?: number;
  idleMs?: number;
}

const WORKER_ENTRY = new URL('./place-search-worker.mjs', import.meta.url);

interface Waiting {
  worker: Worker;
  resolve(places: PlaceMatch[]): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class WorkerPlaceSearcher implements PlaceSearcher {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly maxWaiting: number;
  private readonly timeoutMs: number;
  private readonly idleMs: number;

  constructor(options: PlaceSearchPoolOptions = {}) {
    this.maxWaiting = options.maxWaiting ?? 32;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.idleMs = options.idleMs ?? 5 * 60_000;
  }

  /** Whether the worker (and its gazetteer) is held now. */
  get running(): boolean {
    return this.worker !== null;
  }

  search(query: string, near: LatLngPoint | null): Promise<PlaceMatch[]> {
    if (this.closed) return Promise.reject(new DomainError('unavailable', 'The server is shutting down.'));
    if (this.waiting.size >= this.maxWaiting) return Promise.reject(new DomainError('resource-exhausted', PLACE_SEARCH_BUSY));
    this.cancelIdleExit();
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    worker.ref();
    return new Promise<PlaceMatch[]>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(worker, new DomainError('unavailable', 'Looking up places took too long. Try again in a moment.')), this.timeoutMs);
      this.waiting.set(id, { worker, resolve, reject, timer });
      worker.postMessage({ id, query, near } satisfies PlaceSearchRequest);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelIdleExit();
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(WORKER_ENTRY, { resourceLimits: { maxOldGenerationSizeMb: 512 } });
    worker.unref();
    worker.on('message', (reply: PlaceSearchReply) => {
      const waiting = this.waiting.get(reply.id);
      if (!waiting) return;
      this.waiting.delete(reply.id);
      clearTimeout(waiting.timer);
      if (reply.ok) waiting.resolve(reply.places);
      else waiting.reject(new Error(reply.message));
      if (![...this.waiting.values()].some((other) => other.worker === worker)) {
        worker.unref();
        this.exitWhenIdle();
      }
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', () => this.fail(worker, new DomainError('unavailable', 'Looking up places failed. Try again in a moment.')));
    this.worker = worker;
    return worker;
  }

  /** Ends a worker that failed, hung or was ended: every search waiting on it is refused with `error`. */
  private fail(worker: Worker, error: Error): void {
    if (this.worker === worker) this.worker = null;
    for (const [id, waiting] of this.waiting) {
      if (waiting.worker !== worker) continue;
      clearTimeout(waiting.timer);
      this.waiting.delete(id);
      waiting.reject(error);
    }
    void worker.terminate();
  }

  private exitWhenIdle(): void {
    this.cancelIdleExit();
    const worker = this.worker;
    if (!worker) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.worker !== worker || this.waiting.size > 0) return;
      this.worker = null;
      void worker.terminate();
    }, this.idleMs);
    this.idleTimer.unref();
  }

  private cancelIdleExit(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
