/**
 * The lifecycle the server's worker threads share (the import planner, the SVG sanitiser, the
 * place search): a worker started by the first request, not with the server; requests sent
 * with an id and answered by the message carrying it; each with a time limit; a worker that
 * runs out of time or memory, throws or exits is ended and every request waiting on it refused
 * (the next request starts a new one); a worker ended after `idleMs` with nothing to do, so an
 * idle server holds none of its memory. While it has nothing in hand it does not keep the
 * process alive.
 *
 * What a pool adds on top (a queue, how many may wait, what an answer means) stays in the pool;
 * what it holds outside the requests (an import parsed and waiting for its plan) it names
 * through `busy` and `onLost`.
 */
import { Worker } from 'node:worker_threads';

/** Why a worker was given up: a request's time ran out, it exited, or it threw (its heap limit included). */
export type WorkerLoss = 'timeout' | 'exit' | (Error & { code?: string });

/** A pool's limits, as its caller may set them (each pool has its own defaults). */
export interface WorkerLimits {
  /** Longest one request may take. */
  timeoutMs?: number;
  /** The worker's heap limit. */
  maxMemoryMb?: number;
  /** How long the worker waits for another request before it ends. */
  idleMs?: number;
}

export interface OnDemandWorkerOptions {
  /** The worker's entry (a `.mjs` that loads it through server/workers/load-worker.mjs). */
  entry: URL;
  /** What the pool's caller set; the rest from `defaults`. */
  limits?: WorkerLimits;
  defaults: Required<WorkerLimits>;
  /** What the requests waiting on a lost worker are refused with. */
  lostError(loss: WorkerLoss): Error;
  /** The worker posts `{ ready: true }` once loaded; a request's time limit starts from then, not from the start of a new worker. */
  waitsForReady?: boolean;
  /** Whether the pool still needs the worker beyond the requests under way (it then does not end when idle). */
  busy?(): boolean;
  /** Told of a worker given up, to forget what the pool kept in it. */
  onLost?(worker: Worker): void;
}

/** The usual `lostError`: a request out of time, a worker out of memory or gone refuses with `tooMuch`; a worker that threw, with what it threw. */
export function refuseAs(tooMuch: () => Error): (loss: WorkerLoss) => Error {
  return (loss) => (loss === 'timeout' || loss === 'exit' || loss.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooMuch() : loss);
}

/** A request's body: the message without the id this module gives it. */
export type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

interface Waiting {
  worker: Worker;
  resolve(answer: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | null;
}

export class OnDemandWorker<Request extends { id: number }, Answer extends { id: number }> {
  private worker: Worker | null = null;
  /** Resolves once the current worker said it is ready (with `waitsForReady`). */
  private online: Promise<void> | null = null;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  private readonly limits: Required<WorkerLimits>;

  constructor(private readonly options: OnDemandWorkerOptions) {
    const { limits = {}, defaults } = options;
    this.limits = { timeoutMs: limits.timeoutMs ?? defaults.timeoutMs, maxMemoryMb: limits.maxMemoryMb ?? defaults.maxMemoryMb, idleMs: limits.idleMs ?? defaults.idleMs };
  }

  /** Whether a worker thread is running now. */
  get running(): boolean {
    return this.worker !== null;
  }

  /** The worker running now, if any (what a pool keeps in a worker is lost with it). */
  get current(): Worker | null {
    return this.worker;
  }

  /** The worker running now, started if there is none. */
  started(): Worker {
    return this.worker ?? this.start();
  }

  /** Sends `body` to `worker` (the current one, started if none) and answers its answer. */
  async ask(body: WithoutId<Request>, worker: Worker = this.started()): Promise<Answer> {
    const id = this.nextId++;
    this.cancelIdleExit();
    worker.ref();
    const online = worker === this.worker ? this.online : null;
    return new Promise<Answer>((resolve, reject) => {
      const waiting: Waiting = { worker, resolve: resolve as (answer: unknown) => void, reject, timer: null };
      this.waiting.set(id, waiting);
      const send = () => {
        if (!this.waiting.has(id)) return; // the worker was lost while it started
        waiting.timer = setTimeout(() => this.fail(worker, this.options.lostError('timeout')), this.limits.timeoutMs);
        worker.postMessage({ id, ...body });
      };
      if (online) void online.then(send, () => undefined);
      else send();
    });
  }

  /** Ends the worker after `idleMs` unless a request (or the pool's `busy`) comes first. */
  exitWhenIdle(): void {
    this.cancelIdleExit();
    const worker = this.worker;
    if (!worker || !this.idle(worker)) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.worker !== worker || !this.idle(worker)) return;
      this.worker = null;
      this.online = null;
      void worker.terminate();
    }, this.limits.idleMs);
    this.idleTimer.unref();
  }

  async close(): Promise<void> {
    this.cancelIdleExit();
    const worker = this.worker;
    this.worker = null;
    this.online = null;
    await worker?.terminate();
  }

  private idle(worker: Worker): boolean {
    return ![...this.waiting.values()].some((waiting) => waiting.worker === worker) && !this.options.busy?.();
  }

  private start(): Worker {
    const worker = new Worker(this.options.entry, { resourceLimits: { maxOldGenerationSizeMb: this.limits.maxMemoryMb } });
    worker.unref();
    worker.on('message', (answer: Answer | { ready: true }) => {
      if (!('id' in answer)) return;
      const waiting = this.waiting.get(answer.id);
      if (!waiting) return;
      this.waiting.delete(answer.id);
      if (waiting.timer) clearTimeout(waiting.timer);
      waiting.resolve(answer);
      if (![...this.waiting.values()].some((other) => other.worker === worker)) {
        worker.unref();
        this.exitWhenIdle();
      }
    });
    worker.on('error', (error) => this.fail(worker, this.options.lostError(error)));
    worker.on('exit', () => this.fail(worker, this.options.lostError('exit')));
    this.worker = worker;
    this.online = null;
    if (this.options.waitsForReady) {
      this.online = new Promise<void>((resolve) => {
        const onReady = (message: { ready?: boolean }) => {
          if (!message.ready) return;
          worker.off('message', onReady);
          resolve();
        };
        worker.on('message', onReady);
      });
    }
    return worker;
  }

  /** Gives up `worker`: every request waiting on it is refused with `error`. */
  private fail(worker: Worker, error: Error): void {
    if (this.worker === worker) {
      this.worker = null;
      this.online = null;
    }
    this.options.onLost?.(worker);
    for (const [id, waiting] of this.waiting) {
      if (waiting.worker !== worker) continue;
      if (waiting.timer) clearTimeout(waiting.timer);
      this.waiting.delete(id);
      waiting.reject(error);
    }
    void worker.terminate();
  }

  private cancelIdleExit(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }
}
