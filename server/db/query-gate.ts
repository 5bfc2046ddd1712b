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
 *
 * Nobody waiting at the gate is not nobody waiting: a request is only seen once the event loop
 * reads it. One worker running its queries one after another (the webhook reactor noting an
 * import's parts, 150-300 ms each) went from piece to piece in microtasks and never let the
 * loop read anything, 3.4 s in the CPU profile of the fairness bench's re-subscribe attack. So
 * work that has gone on for {@link LOOP_TURN_AFTER_MS} since the event loop last took a turn
 * lets it take one before the next piece, whoever waits.
 */
import { inBackground } from '../../ports/background-work.js';

type Turn = () => void;

/** A piece of the service's work shorter than this buys requests one turn, not time. */
const CREDIT_FROM_MS = 5;
/** Work run back to back this long without the event loop taking a turn lets it take one before the next piece. */
const LOOP_TURN_AFTER_MS = 10;

export class QueryGate {
  private busy = false;
  private readonly requests: Turn[] = [];
  private readonly background: Turn[] = [];
  /** Whose turn it is next when both wait. */
  private backgroundNext = true;
  /** How long requests may still go before the service's waiting work (ms of the last piece of it). */
  private requestCredit = 0;
  /** When the event loop last took a turn (its check phase, after reading what had arrived). */
  private loopTurnedAt: number;
  private loopWatched = false;

  constructor(private readonly now: () => number = () => performance.now()) {
    this.loopTurnedAt = now();
  }

  /** Runs `work` (one query, or a whole transaction) when it is its turn. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.turn();
    this.watchLoop();
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
      if (this.now() - this.loopTurnedAt < LOOP_TURN_AFTER_MS) return Promise.resolve();
      // Pieces went back to back without the event loop: it reads what arrived first.
      return new Promise((start) => {
        (inBackground() ? this.background : this.requests).push(start);
        this.handOver();
      });
    }
    return new Promise((start) => (inBackground() ? this.background : this.requests).push(start));
  }

  /** Notes when the event loop next takes a turn. */
  private watchLoop(): void {
    if (this.loopWatched) return;
    this.loopWatched = true;
    setImmediate(() => {
      this.loopWatched = false;
      this.loopTurnedAt = this.now();
    });
  }

  private release(): void {
    if (this.waiting === 0) {
      this.busy = false;
      return;
    }
    this.handOver();
  }

  /** The event loop first takes in what arrived meanwhile, then the next goes. */
  private handOver(): void {
    setImmediate(() => {
      this.loopTurnedAt = this.now();
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
