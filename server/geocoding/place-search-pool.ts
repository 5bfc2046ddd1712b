/**
 * Where a visitor's "near …" searches are answered (issue 29 item 4): one worker thread
 * (place-search-worker.ts) holding the embedded gazetteer, started by the first search and
 * ended after `idleMs` without one, so an idle server holds none of its 130 MB. Its own
 * thread, not the import planner's: a visitor's search never waits behind a customer's
 * 50 MB import. Searches are answered in the order asked; a few dozen at once at most (the
 * next is refused as busy rather than queued without end); one that takes too long ends the
 * worker and the next search starts another.
 *
 * The worker's lifecycle (start, time limit, failure, a new worker, exit when idle) is the one
 * the worker pools share: server/workers/on-demand-worker.ts.
 */
import { DomainError } from '../../events/errors.js';
import type { LatLngPoint } from '../../events/geocoding.js';
import type { PlaceMatch } from '../../events/place-search.js';
import { OnDemandWorker, type WorkerLimits } from '../workers/on-demand-worker.js';
import type { PlaceSearchReply, PlaceSearchRequest } from './place-search-worker.js';

export const PLACE_SEARCH_BUSY = 'Many places are being looked up right now. Try again in a moment.';

export interface PlaceSearcher {
  /** The places `query` may mean, the likeliest first; `near`: where the visitor is looking. */
  search(query: string, near: LatLngPoint | null): Promise<PlaceMatch[]>;
  close(): Promise<void>;
}

/** `timeoutMs`: longest one search may take, the gazetteer's first build included. */
export interface PlaceSearchPoolOptions extends WorkerLimits {
  /** Searches waiting at once; one more is refused as resource-exhausted. */
  maxWaiting?: number;
}

const WORKER_ENTRY = new URL('./place-search-worker.mjs', import.meta.url);

export class WorkerPlaceSearcher implements PlaceSearcher {
  private readonly worker: OnDemandWorker<PlaceSearchRequest, PlaceSearchReply>;
  private readonly maxWaiting: number;
  private waiting = 0;
  private closed = false;

  constructor(options: PlaceSearchPoolOptions = {}) {
    this.maxWaiting = options.maxWaiting ?? 32;
    this.worker = new OnDemandWorker({
      entry: WORKER_ENTRY,
      limits: options,
      defaults: { timeoutMs: 30_000, maxMemoryMb: 512, idleMs: 5 * 60_000 },
      lostError: (loss) =>
        loss === 'timeout'
          ? new DomainError('unavailable', 'Looking up places took too long. Try again in a moment.')
          : loss === 'exit'
            ? new DomainError('unavailable', 'Looking up places failed. Try again in a moment.')
            : loss,
    });
  }

  /** Whether the worker (and its gazetteer) is held now. */
  get running(): boolean {
    return this.worker.running;
  }

  async search(query: string, near: LatLngPoint | null): Promise<PlaceMatch[]> {
    if (this.closed) throw new DomainError('unavailable', 'The server is shutting down.');
    if (this.waiting >= this.maxWaiting) throw new DomainError('resource-exhausted', PLACE_SEARCH_BUSY);
    this.waiting++;
    try {
      const reply = await this.worker.ask({ query, near });
      if (!reply.ok) throw new Error(reply.message);
      return reply.places;
    } finally {
      this.waiting--;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker.close();
  }
}
