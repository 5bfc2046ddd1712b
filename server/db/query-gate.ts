/**
 * The embedded database's turns. PGlite runs one query at a time and each runs on this
 * process's thread; its own queue hands the next query over in a microtask, so a backlog of
 * queries (a projection catching up with a big import: reads of megabytes of events, then their
 * writes) ran back to back without the event loop taking in a single request, for a minute
 * (issue 26 item 8). Every query and transaction passes this gate first: when others wait, the
 * event loop gets a turn between two of them (requests that arrived are read and queue their
 * queries), and a person's request goes before the service's own work
 * (ports/background-work.ts), which still gets a turn once it has waited {@link MAX_WAIT_MS},
 * one piece at a time and never more than half the time while requests wait.
 * Each piece of background work is kept small (event reads bounded in bytes, one import chunk
 * per projection transaction), so a request waits for at most one of them.
 */
import { inBackground } from '../../ports/background-work.js';

/** How long the service's own work waits behind requests at most before it goes next. */
const MAX_WAIT_MS = 500;

interface Waiter {
  start: (ahead: boolean) => void;
  since: number;
}

export class QueryGate {
  private busy = false;
  private readonly requests: Waiter[] = [];
  private readonly background: Waiter[] = [];
  /** Until when waiting requests go before the service's work, however long it has waited. */
  private requestsUntil = Number.NEGATIVE_INFINITY;

  /** Runs `work` (one query, or a whole transaction) when it is its turn. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const ahead = await this.turn();
    const started = performance.now();
    try {
      return await work();
    } finally {
      // The service's work that went ahead of waiting requests: they go for as long as it took
      // (half a second at least) before the next such piece, so it never takes more than half.
      if (ahead) {
        const ended = performance.now();
        this.requestsUntil = ended + Math.max(MAX_WAIT_MS, ended - started);
      }
      this.release();
    }
  }

  /** Resolves when it is the caller's turn: true when it goes ahead of waiting requests. */
  private turn(): Promise<boolean> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve(false);
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
      if (next) next.waiter.start(next.ahead);
      else this.busy = false;
    });
  }

  private next(): { waiter: Waiter; ahead: boolean } | undefined {
    const oldest = this.background[0];
    const request = this.requests[0];
    if (!oldest) return request && { waiter: this.requests.shift()!, ahead: false };
    if (!request) return { waiter: this.background.shift()!, ahead: false };
    // Requests wait: the service's work goes only once it has waited long, and then one piece
    // at a time, requests going between (a backlog of it, every projection reading an import's
    // part, must not go all at once ahead of them either).
    const now = performance.now();
    if (now - oldest.since >= MAX_WAIT_MS && now >= this.requestsUntil) return { waiter: this.background.shift()!, ahead: true };
    return { waiter: this.requests.shift()!, ahead: false };
  }
}
