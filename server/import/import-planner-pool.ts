/**
 * Where imports are parsed and planned: a worker thread (import-planner-worker.ts), so the
 * server keeps answering everyone else meanwhile (issue 26 item 8: a 59 MB CSV held every
 * request of a PGlite server for 47 s). One worker, one request at a time in the order asked;
 * at most `maxJobs` imports between their parse and their plan, the next refused with the
 * catalogue's resource-exhausted (429, try again soon) rather than queued without end. A step
 * that runs out of time or memory ends the worker and is refused as too large; the next import
 * gets a new worker. The worker starts with the first import and ends after `idleMs` without
 * one (its heap after a big file is hundreds of megabytes).
 */
import { Worker } from 'node:worker_threads';
import { DomainError } from '../../events/errors.js';
import type { PlannedImport } from '../../events/import-planner.js';
import type { Placement } from '../../events/geocoding.js';
import type { ImportFormat, ImportProblem, PlannedAddress, PlannedFloor } from '../../events/map-import.js';
import type { MapDocument } from '../../events/map-document.js';
import type { ImportInput } from './import-input.js';
import type { PlannerAnswer, PlannerRequest } from './import-planner-worker.js';

export const IMPORTS_BUSY = 'Many files are being imported right now. Try again in a minute.';
export const IMPORT_TOO_BIG = 'The file is too large or too complex to import at once. Split it into smaller files and import them one after another.';

export interface ParsedImport {
  job: number;
  floors: PlannedFloor[];
  hasLocations: boolean;
  /** The distinct street addresses of rows without coordinates, when asked for (GEOCODER_URL). */
  addresses: PlannedAddress[];
}

export interface PlanRequest {
  document: MapDocument;
  sourceName: string;
  problems: ImportProblem[];
  drawings: Array<[string, string]>;
  sizes: Array<[string, { width: number; height: number }]>;
  /** A street geocoder's answers (GEOCODER_URL), by address key. */
  remote?: Array<[string, Placement | null]>;
}

export interface ImportPlanner {
  /** Parses the file; its plan waits in the worker for {@link ImportPlanner.plan} (or {@link ImportPlanner.drop}). `streetAddresses`: answer the rows' street addresses too. */
  parse(format: ImportFormat, input: ImportInput, streetAddresses?: boolean): Promise<ParsedImport>;
  plan(job: number, request: PlanRequest): Promise<PlannedImport>;
  /** Forgets a parsed job that will not be planned (its import failed in between). */
  drop(job: number): void;
  close(): Promise<void>;
}

export interface ImportPlannerPoolOptions {
  /** Imports between parse and plan at once; one more is refused as resource-exhausted. */
  maxJobs?: number;
  /** Longest one step may take. */
  timeoutMs?: number;
  /** The worker's heap limit. */
  maxMemoryMb?: number;
  idleMs?: number;
}

const WORKER_ENTRY = new URL('./import-planner-worker.mjs', import.meta.url);

type Body<T> = T extends unknown ? Omit<T, 'id'> : never;

interface Pending {
  resolve(answer: PlannerAnswer): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

export class WorkerImportPlanner implements ImportPlanner {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  /** The worker each parsed job's plan waits in. */
  private readonly jobs = new Map<number, Worker>();
  private nextId = 1;
  private closed = false;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly maxJobs: number;
  private readonly timeoutMs: number;
  private readonly maxMemoryMb: number;
  private readonly idleMs: number;

  constructor(options: ImportPlannerPoolOptions = {}) {
    this.maxJobs = options.maxJobs ?? 4;
    this.timeoutMs = options.timeoutMs ?? 180_000;
    this.maxMemoryMb = options.maxMemoryMb ?? 3072;
    this.idleMs = options.idleMs ?? 60_000;
  }

  /** Whether a worker thread is running now. */
  get running(): boolean {
    return this.worker !== null;
  }

  async parse(format: ImportFormat, input: ImportInput, streetAddresses = false): Promise<ParsedImport> {
    if (this.closed) throw new DomainError('unavailable', 'The server is shutting down.');
    if (this.jobs.size + this.parsing >= this.maxJobs) throw new DomainError('resource-exhausted', IMPORTS_BUSY);
    const worker = this.worker ?? this.start();
    this.parsing++;
    try {
      const { bytes, attachments, ...rest } = input;
      const answer = await this.ask(worker, { op: 'parse', format, input: { ...rest, bytes, attachments }, streetAddresses });
      if (!('parsed' in answer)) throw new Error('The import planner answered out of turn.');
      const job = answer.id;
      this.jobs.set(job, worker);
      // Files the parser added to the attachments (the file itself as an SVG's drawing), as if it had run here.
      for (const [name, file] of answer.parsed.added) attachments.set(name, file === null ? bytes : Buffer.from(file));
      return { job, floors: answer.parsed.floors, hasLocations: answer.parsed.hasLocations, addresses: answer.parsed.addresses };
    } finally {
      this.parsing--;
      this.exitWhenIdle();
    }
  }

  private parsing = 0;

  async plan(job: number, request: PlanRequest): Promise<PlannedImport> {
    const worker = this.jobs.get(job);
    this.jobs.delete(job);
    try {
      if (!worker || worker !== this.worker) throw new DomainError('unavailable', 'The import was interrupted. Import the file again.');
      const answer = await this.ask(worker, { op: 'plan', job, ...request });
      if (!('planned' in answer)) throw new Error('The import planner answered out of turn.');
      return answer.planned;
    } finally {
      this.exitWhenIdle();
    }
  }

  drop(job: number): void {
    const worker = this.jobs.get(job);
    this.jobs.delete(job);
    if (worker && worker === this.worker) void this.ask(worker, { op: 'drop', job }).catch(() => undefined);
    this.exitWhenIdle();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.cancelIdleExit();
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private ask(worker: Worker, body: Body<PlannerRequest>): Promise<PlannerAnswer & { ok: true }> {
    const id = this.nextId++;
    this.cancelIdleExit();
    worker.ref();
    return new Promise<PlannerAnswer & { ok: true }>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(worker, new DomainError('invalid-argument', IMPORT_TOO_BIG)), this.timeoutMs);
      this.pending.set(id, {
        timer,
        reject,
        resolve: (answer) => {
          if (answer.ok) resolve(answer);
          else if (answer.domain) reject(new DomainError(answer.domain.code, answer.domain.message));
          else reject(new Error(answer.message));
        },
      });
      worker.postMessage({ id, ...body } as PlannerRequest);
    });
  }

  private start(): Worker {
    const worker = new Worker(WORKER_ENTRY, { resourceLimits: { maxOldGenerationSizeMb: this.maxMemoryMb } });
    worker.unref();
    worker.on('message', (answer: PlannerAnswer | { ready: true }) => {
      if (!('id' in answer)) return;
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      clearTimeout(waiting.timer);
      if (this.pending.size === 0) worker.unref();
      waiting.resolve(answer);
    });
    worker.on('error', (error: Error & { code?: string }) =>
      this.fail(worker, error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new DomainError('invalid-argument', IMPORT_TOO_BIG) : error),
    );
    worker.on('exit', () => this.fail(worker, new DomainError('invalid-argument', IMPORT_TOO_BIG)));
    this.worker = worker;
    return worker;
  }

  /** Ends a worker that failed: everything waiting on it is refused with `error`, its parsed jobs are gone. */
  private fail(worker: Worker, error: Error): void {
    if (this.worker === worker) this.worker = null;
    for (const [job, where] of this.jobs) if (where === worker) this.jobs.delete(job);
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      this.pending.delete(id);
      waiting.reject(error);
    }
    void worker.terminate();
  }

  private exitWhenIdle(): void {
    this.cancelIdleExit();
    const worker = this.worker;
    if (!worker || this.pending.size > 0 || this.jobs.size > 0 || this.parsing > 0) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.worker !== worker || this.pending.size > 0 || this.jobs.size > 0 || this.parsing > 0) return;
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
