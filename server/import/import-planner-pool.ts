/**
 * Where imports are parsed and planned: a worker thread (import-planner-worker.ts), so the
 * server keeps answering everyone else meanwhile (issue 26 item 8: a 59 MB CSV held every
 * request of a PGlite server for 47 s). One worker, one request at a time in the order asked;
 * at most `maxJobs` imports between their parse and their plan, the next refused with the
 * catalogue's resource-exhausted (429, try again soon) rather than queued without end. A step
 * that runs out of time or memory ends the worker and is refused as too large; the next import
 * gets a new worker. The worker starts with the first import and ends after `idleMs` without
 * one (its heap after a big file is hundreds of megabytes).
 *
 * The worker's lifecycle (start, time limit, failure, a new worker, exit when idle) is the one
 * the worker pools share: server/workers/on-demand-worker.ts.
 */
import type { Worker } from 'node:worker_threads';
import { DomainError } from '../../events/errors.js';
import type { PlannedImport } from '../../events/import-planner.js';
import type { Placement } from '../../events/geocoding.js';
import type { ImportFormat, ImportProblem, PlannedAddress, PlannedFloor } from '../../events/map-import.js';
import type { MapDocument } from '../../events/map-document.js';
import type { ImportInput } from './import-input.js';
import { OnDemandWorker, refuseAs, type WorkerLimits } from '../workers/on-demand-worker.js';
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

export interface ImportPlannerPoolOptions extends WorkerLimits {
  /** Imports between parse and plan at once; one more is refused as resource-exhausted. */
  maxJobs?: number;
}

const WORKER_ENTRY = new URL('./import-planner-worker.mjs', import.meta.url);

export class WorkerImportPlanner implements ImportPlanner {
  private readonly worker: OnDemandWorker<PlannerRequest, PlannerAnswer>;
  /** The worker each parsed job's plan waits in. */
  private readonly jobs = new Map<number, Worker>();
  private parsing = 0;
  private closed = false;
  private readonly maxJobs: number;

  constructor(options: ImportPlannerPoolOptions = {}) {
    this.maxJobs = options.maxJobs ?? 4;
    this.worker = new OnDemandWorker({
      entry: WORKER_ENTRY,
      limits: options,
      defaults: { timeoutMs: 180_000, maxMemoryMb: 3072, idleMs: 60_000 },
      lostError: refuseAs(() => new DomainError('invalid-argument', IMPORT_TOO_BIG)),
      busy: () => this.jobs.size > 0 || this.parsing > 0,
      // Its parsed jobs are gone with it.
      onLost: (worker) => {
        for (const [job, where] of this.jobs) if (where === worker) this.jobs.delete(job);
      },
    });
  }

  /** Whether a worker thread is running now. */
  get running(): boolean {
    return this.worker.running;
  }

  async parse(format: ImportFormat, input: ImportInput, streetAddresses = false): Promise<ParsedImport> {
    if (this.closed) throw new DomainError('unavailable', 'The server is shutting down.');
    if (this.jobs.size + this.parsing >= this.maxJobs) throw new DomainError('resource-exhausted', IMPORTS_BUSY);
    const worker = this.worker.started();
    this.parsing++;
    try {
      const { bytes, attachments, ...rest } = input;
      const answer = answered(await this.worker.ask({ op: 'parse', format, input: { ...rest, bytes, attachments }, streetAddresses }, worker));
      if (!('parsed' in answer)) throw new Error('The import planner answered out of turn.');
      const job = answer.id;
      this.jobs.set(job, worker);
      // Files the parser added to the attachments (the file itself as an SVG's drawing), as if it had run here.
      for (const [name, file] of answer.parsed.added) attachments.set(name, file === null ? bytes : Buffer.from(file));
      return { job, floors: answer.parsed.floors, hasLocations: answer.parsed.hasLocations, addresses: answer.parsed.addresses };
    } finally {
      this.parsing--;
      this.worker.exitWhenIdle();
    }
  }

  async plan(job: number, request: PlanRequest): Promise<PlannedImport> {
    const worker = this.jobs.get(job);
    this.jobs.delete(job);
    try {
      if (!worker || worker !== this.worker.current) throw new DomainError('unavailable', 'The import was interrupted. Import the file again.');
      const answer = answered(await this.worker.ask({ op: 'plan', job, ...request }, worker));
      if (!('planned' in answer)) throw new Error('The import planner answered out of turn.');
      return answer.planned;
    } finally {
      this.worker.exitWhenIdle();
    }
  }

  drop(job: number): void {
    const worker = this.jobs.get(job);
    this.jobs.delete(job);
    if (worker && worker === this.worker.current) void this.worker.ask({ op: 'drop', job }, worker).catch(() => undefined);
    this.worker.exitWhenIdle();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.worker.close();
  }
}

/** The worker's answer, or its refusal thrown (a domain error as the catalogue's). */
function answered(answer: PlannerAnswer): PlannerAnswer & { ok: true } {
  if (answer.ok) return answer;
  if (answer.domain) throw new DomainError(answer.domain.code, answer.domain.message);
  throw new Error(answer.message);
}
