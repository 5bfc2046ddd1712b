/**
 * The embedded database's turns (issue 26 item 8). PGlite runs one query at a time, on this
 * process's thread, and its own queue hands the next query over in a microtask: a backlog of
 * queries (every projection catching up with a big import, each reading and writing its parts)
 * ran back to back without the event loop taking in a single request, for 40 s.
 *
 * Every query and transaction passes this gate. When others wait, the event loop gets a turn
 * before the next one goes (requests that arrived meanwhile are read and queue their queries),
 * and people's requests and the service's own work (ports/background-work.ts: projections, the
 * live hub following the log) take turns while both wait, by time: after a piece of the
 * service's work, requests go for as long as that piece took (one at least), then the service
 * again. One piece at a time each in alternation was not enough: a request's query is a few
 * milliseconds and the service's piece (a projection applying an import part) hundreds, so
 * requests got a few queries a second, and during a 100,000-row import ten requests a second
 * piled up into a queue of two hundred queries, seconds long (issue 26 item 8). A request
 * still waits for at most one piece of the service's work at a time, and that work is kept
 * small (reads bounded in bytes, one import part per projection transaction); the service's
 * work still gets half the time under a stream of requests, so a projection keeps up with its
 * author's writes as it does without the gate (a gate that put requests first starved them: a
 * new map answered "Map not found" to its own author).
 */
import { inBackground } from '../../ports/background-work.js';

type Turn = () => void;

/** A piece of the service's work shorter than this buys requests one turn, not time. */
const CREDIT_FROM_MS = 5;

export class QueryGate {
  private busy = false;
  private readonly requests: Turn[] = [];
  private readonly background: Turn[] = [];
  /** Whose turn it is next when both wait. */
  private backgroundNext = true;
  /** How long requests may still go before the service's waiting work (ms of the last piece of it). */
  private requestCredit = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Runs `work` (one query, or a whole transaction) when it is its turn. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.turn();
    const background = inBackground();
    const started = this.now();
    try {
      return await work();
    } finally {
      const took = this.now() - started;
      if (background) this.requestCredit = took >= CREDIT_FROM_MS ? took : 0;
      else this.requestCredit -= took;
      this.release();
    }
  }

  /** How many wait for their turn (tests). */
  get waiting(): number {
    return this.requests.length + this.background.length;
  }

  private turn(): Promise<void> {
    if (!this.busy && this.waiting === 0) {
      this.busy = true;
      return Promise.resolve();
    }
    return new Promise((start) => (inBackground() ? this.background : this.requests).push(start));
  }

  private release(): void {
    if (this.waiting === 0) {
      this.busy = false;
      return;
    }
    // Others wait: the event loop first takes in what arrived meanwhile, then the next goes.
    setImmediate(() => {
      const next = this.next();
      if (next) next();
      else this.busy = false;
    });
  }

  private next(): Turn | undefined {
    if (this.background.length === 0) return this.requests.shift();
    if (this.requests.length === 0) return this.background.shift();
    // Requests go on while the service's last piece of work has bought them time.
    const fromBackground = this.backgroundNext && this.requestCredit <= 0;
    this.backgroundNext = !fromBackground;
    return fromBackground ? this.background.shift() : this.requests.shift();
  }
}
