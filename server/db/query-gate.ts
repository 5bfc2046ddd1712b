/**
 * The embedded database's turns. PGlite runs one query at a time and each runs on this
 * process's thread; its own queue hands the next query over in a microtask, so a backlog of
 * queries (a projection catching up with a big import: reads of megabytes of events, then their
 * writes) ran back to back without the event loop taking in a single request, for a minute
 * (issue 26 item 8). Every query and transaction passes this gate first: when others wait, the
 * event loop gets a turn between two of them (requests that arrived are read and queue their
 * queries), and a person's request goes before the service's own work
 * (ports/background-work.ts), which still gets a turn once it has waited {@link MAX_WAIT_MS},
 * one piece per such while.
 * Each piece of background work is kept small (event reads bounded in bytes, one import chunk
 * per projection transaction), so a request waits for at most one of them.
 */
import { inBackground } from '../../ports/background-work.js';

/** How long the service's own work waits behind requests at most before it goes next. */
const MAX_WAIT_MS = 500;

interface Waiter {
  start: () => void;
  since: number;
}

export class QueryGate {
  private busy = false;
  private readonly requests: Waiter[] = [];
  private readonly background: Waiter[] = [];
  /** When the service's own work last went ahead of waiting requests. */
  private lastOverdue = Number.NEGATIVE_INFINITY;

  /** Runs `work` (one query, or a whole transaction) when it is its turn. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.turn();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private turn(): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((start) => (inBackground() ? this.background : this.requests).push({ start, since: performance.now() }));
  }

  private release(): void {
    if (this.requests.length === 0 && this.background.length === 0) {
      this.busy = false;
      return;
    }
    // Others wait: the event loop first takes in what arrived meanwhile, then the next goes.
    setImmediate(() => {
      const next = this.next();
      if (next) next.start();
      else this.busy = false;
    });
  }

  private next(): Waiter | undefined {
    const oldest = this.background[0];
    if (!oldest) return this.requests.shift();
    if (this.requests.length === 0) return this.background.shift();
    // Requests wait: the service's work goes only once it has waited long, and then one piece
    // per such while (a backlog of it, every projection reading an import's part, must not go
    // all at once ahead of them either).
    const now = performance.now();
    if (now - oldest.since >= MAX_WAIT_MS && now - this.lastOverdue >= MAX_WAIT_MS) {
      this.lastOverdue = now;
      return this.background.shift();
    }
    return this.requests.shift();
  }
}
