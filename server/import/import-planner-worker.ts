/**
 * The body of the import planner's worker thread (import-planner-pool.ts): a file's parsing
 * (parsers.ts) and planning (events/import-planner.ts), the same pure functions the route
 * called in the server's thread, run here so that a big file (a 59 MB CSV took 47 s) keeps no
 * other request waiting. Started through import-planner-worker.mjs.
 *
 * A job is two steps, because between them the server checks the drawings the plan names
 * (the SVG sanitiser's own worker) and reads the stored drawings of the map's floors:
 *  1. `parse`: the file to a plan, kept here; answers what the server needs for those checks;
 *  2. `plan`: the plan against the map, with those drawings' texts and sizes; answers the
 *     preview, the edits and the files to store, and forgets the job.
 */
import { parentPort } from 'node:worker_threads';
import { DomainError, type ErrorCode } from '../../events/errors.js';
import { planImport, type FloorRegions, type PlannedImport } from '../../events/import-planner.js';
import { geocodePlan, streetAddresses, type Placement } from '../../events/geocoding.js';
import type { ImportFormat, ImportPlan, ImportProblem, PlannedAddress, PlannedFloor } from '../../events/map-import.js';
import type { MapDocument } from '../../events/map-document.js';
import { embeddedGazetteer } from '../geocoding/gazetteer.js';
import { geographicFloor } from './geographic-floor.js';
import type { ImportInput } from './import-input.js';
import { parsers } from './parsers.js';
import { svgRegions } from './svg-regions.js';

/** The file as the route read it; bytes arrive as Uint8Array (structured clone drops Buffer). */
export type ParseInput = Omit<ImportInput, 'bytes' | 'attachments'> & { bytes: Uint8Array; attachments: Map<string, Uint8Array> };

export type PlannerRequest =
  | { id: number; op: 'parse'; format: ImportFormat; input: ParseInput; /** Answer the distinct street addresses of rows without coordinates (for GEOCODER_URL). */ streetAddresses?: boolean }
  | {
      id: number;
      op: 'plan';
      job: number;
      document: MapDocument;
      sourceName: string;
      /** Problems found by the server since the parse (drawings refused or trimmed). */
      problems: ImportProblem[];
      /** SVG texts whose regions locations may link to: a layer id or a planned floor key each. */
      drawings: Array<[string, string]>;
      /** Uploaded drawings' sizes, by attachment name. */
      sizes: Array<[string, { width: number; height: number }]>;
      /** A street geocoder's answers (GEOCODER_URL), by address key (events/geocoding.ts addressKey). */
      remote?: Array<[string, Placement | null]>;
    }
  | { id: number; op: 'drop'; job: number };

export type PlannerAnswer =
  | { id: number; ok: true; parsed: { floors: PlannedFloor[]; hasLocations: boolean; added: Array<[string, Uint8Array | null]>; addresses: PlannedAddress[] } }
  | { id: number; ok: true; planned: PlannedImport }
  | { id: number; ok: true; dropped: true }
  | { id: number; ok: false; domain: { code: Exclude<ErrorCode, 'unknown'>; message: string } | null; message: string };

const plans = new Map<number, ImportPlan>();

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

async function run(request: PlannerRequest): Promise<PlannerAnswer> {
  switch (request.op) {
    case 'parse': {
      const { input } = request;
      const attachments = new Map([...input.attachments].map(([name, bytes]) => [name, asBuffer(bytes)]));
      const bytes = asBuffer(input.bytes);
      const before = new Set(attachments.keys());
      const plan = await parsers[request.format]({ ...input, bytes, attachments });
      plans.set(request.id, plan);
      // A parser may name the file itself as a floor's drawing (an SVG): the server is told, as it would have seen the change.
      const added = [...attachments].filter(([name]) => !before.has(name)).map(([name, file]): [string, Uint8Array | null] => [name, file === bytes ? null : file]);
      const addresses = request.streetAddresses ? streetAddresses(plan) : [];
      return { id: request.id, ok: true, parsed: { floors: plan.floors, hasLocations: plan.locations.length > 0, added, addresses } };
    }
    case 'plan': {
      const plan = plans.get(request.job);
      plans.delete(request.job);
      if (!plan) throw new Error(`No parsed import ${request.job}`);
      plan.problems.push(...request.problems);
      // Rows with an address and no coordinates placed (the gazetteer read only if there are any).
      geocodePlan(plan, embeddedGazetteer, new Map(request.remote ?? []));
      const regions = new Map<string, FloorRegions>(request.drawings.map(([key, svg]) => [key, new Map(svgRegions(svg).map((region) => [region.id, region.title]))]));
      const sizes = new Map(request.sizes);
      const planned = planImport(request.document, plan, {
        sourceName: request.sourceName,
        regionsOf: (key) => regions.get(key) ?? null,
        geographicFloor,
        drawingSize: (floor) => (floor.drawing?.kind === 'attachment' ? (sizes.get(floor.drawing.name) ?? null) : null),
      });
      return { id: request.id, ok: true, planned };
    }
    case 'drop':
      plans.delete(request.job);
      return { id: request.id, ok: true, dropped: true };
    default: {
      const missing: never = request;
      return missing;
    }
  }
}

parentPort?.on('message', (request: PlannerRequest) => {
  run(request).then(
    (answer) => parentPort?.postMessage(answer),
    (error: unknown) =>
      parentPort?.postMessage({
        id: request.id,
        ok: false,
        domain: error instanceof DomainError ? { code: error.code, message: error.message } : null,
        message: error instanceof Error ? error.message : String(error),
      } satisfies PlannerAnswer),
  );
});

parentPort?.postMessage({ ready: true });
