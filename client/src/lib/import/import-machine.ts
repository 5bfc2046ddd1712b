/**
 * Importing a file into a map, as the Data panel and /maps/new go through it:
 *
 *   idle ──PICK──▶ sending (preview) ──answer──▶ ready ──APPLY──▶ applying ──answer──▶ idle (notice)
 *     ▲              │ refused: failed            │ SET_COLUMN: sending again   │ refused: ready, error
 *     └──CANCEL──────┴────────────────────────────┘ TOGGLE_REGION: a moment, then sending again
 *
 * The server reads the file every time (the client never parses it): a changed column sends the
 * file again with `?mapping=`, and Apply sends it once more with `?apply=1`. A re-preview keeps the
 * last preview shown until the new one arrives; a refusal keeps it too, with the server's words.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { ColumnMapping, ImportField, ImportOptions, ImportPreview } from '../../../../events/map-import';
import { toApiError } from '../api';
import { orderImportFiles, sendImport, type ImportRequest } from './import-api';
import { prepareImportFiles, type PreparedFiles } from './prepare-files';

/** How long region ticks wait for more before the preview is asked again. */
export const REGION_SETTLE_MS = 600;

export interface ImportContext {
  mapId: string;
  /** The main file first, then the files it references. */
  files: File[];
  options: ImportOptions;
  /** The last preview the server answered (kept while a new one is on its way). */
  preview: ImportPreview | null;
  /** The share of the bytes sent, 0 to 1. */
  progress: number;
  /** Every byte is sent; the server reads the file. */
  reading: boolean;
  /** How far the server has got placing rows by their address, while it does. */
  geocoding: { done: number; total: number } | null;
  /** The last refusal, in the server's words. */
  error: string | null;
  /** What the last apply did ("Imported 120 locations from shops.csv."). */
  notice: string | null;
  /** What became of a Mapfold JSON's drawings on other sites (copied here first). */
  notes: string[];
}

export type ImportEvent =
  | { type: 'PICK'; files: readonly File[] }
  | { type: 'SET_COLUMN'; field: ImportField; column: string | null }
  | { type: 'TOGGLE_REGION'; id: string; on: boolean }
  | { type: 'SET_ALL_REGIONS'; on: boolean }
  | { type: 'APPLY' }
  | { type: 'CANCEL' }
  | { type: 'DISMISS' }
  // From the request under way.
  | { type: 'PROGRESS'; fraction: number }
  | { type: 'UPLOADED' }
  | { type: 'GEOCODING'; done: number; total: number }
  | { type: 'ANSWERED'; preview: ImportPreview }
  | { type: 'FAILED'; message: string };

type Answer = Extract<ImportEvent, { type: 'PROGRESS' | 'UPLOADED' | 'GEOCODING' | 'ANSWERED' | 'FAILED' }>;

/** The request: progress as it goes, then its answer or its refusal; stopping it aborts it. */
const importRequest = fromCallback<ImportEvent, ImportRequest>(({ sendBack, input }) => {
  const controller = new AbortController();
  let shown = 0;
  const send = (event: Answer) => {
    if (!controller.signal.aborted) sendBack(event);
  };
  sendImport(input, {
    signal: controller.signal,
    onProgress: (fraction) => {
      // A re-render per percent is plenty.
      if (fraction < 1 && fraction - shown < 0.01) return;
      shown = fraction;
      send({ type: 'PROGRESS', fraction });
    },
    onUploaded: () => send({ type: 'UPLOADED' }),
    onGeocoding: ({ done, total }) => send({ type: 'GEOCODING', done, total }),
  }).then(
    (preview) => send({ type: 'ANSWERED', preview }),
    (failure: unknown) => send({ type: 'FAILED', message: toApiError(failure).message }),
  );
  return () => controller.abort();
});

/** The files as they go to the server: a Mapfold JSON's drawings elsewhere copied here first. */
const prepareFiles = fromPromise<PreparedFiles, { files: File[] }>(({ input }) => prepareImportFiles(input.files));

/** Whether a region becomes a location, as the user left it (their tick, else the server's guess). */
export function regionChosen(options: ImportOptions, region: { id: string; selected: boolean }): boolean {
  if (options.includeRegions?.includes(region.id)) return true;
  if (options.skipRegions?.includes(region.id)) return false;
  return region.selected;
}

/** The options with one region ticked or unticked: a change from the guess is recorded, a return to it forgotten. */
function withRegion(options: ImportOptions, region: { id: string; selected: boolean }, on: boolean): ImportOptions {
  const skip = new Set(options.skipRegions ?? []);
  const include = new Set(options.includeRegions ?? []);
  skip.delete(region.id);
  include.delete(region.id);
  if (on && !region.selected) include.add(region.id);
  if (!on && region.selected) skip.add(region.id);
  return { ...options, skipRegions: [...skip], includeRegions: [...include] };
}

/** The mapping the user sees: theirs once they changed it, else the server's guess. */
export function currentMapping(context: Pick<ImportContext, 'options' | 'preview'>): ColumnMapping {
  return context.options.columns ?? context.preview?.mapping ?? {};
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What an apply did, in words. */
export function appliedNotice(preview: ImportPreview, fileName: string): string {
  const { locations, updated, layers } = preview.counts;
  if (preview.replaces) return `Imported ${fileName}: the map now has ${count(layers, 'floor', 'floors')} and ${count(locations, 'location', 'locations')}.`;
  if (locations === 0 && updated > 0) return `Updated ${count(updated, 'location', 'locations')} from ${fileName}.`;
  const changed = updated > 0 ? ` (${count(updated, 'existing one', 'existing ones')} updated)` : '';
  return `Imported ${count(locations, 'location', 'locations')}${changed} from ${fileName}.`;
}

export const importMachine = setup({
  types: {
    context: {} as ImportContext,
    events: {} as ImportEvent,
    input: {} as { mapId: string },
  },
  actors: { importRequest, prepareFiles },
  actions: {
    /** The page hears that the server is about to record an import (the editor notes its revision). */
    applying: () => undefined,
    /** The page hears what was recorded (the editor makes it one undo step). */
    applied: (_, _params: { preview: ImportPreview; fileName: string }) => undefined,
    setColumn: assign(({ context, event }) => {
      if (event.type !== 'SET_COLUMN') return {};
      const columns: ColumnMapping = { ...currentMapping(context) };
      if (event.column) columns[event.field] = event.column;
      else delete columns[event.field];
      return { options: { ...context.options, columns }, error: null };
    }),
    toggleRegion: assign(({ context, event }) => {
      if (event.type !== 'TOGGLE_REGION') return {};
      const region = context.preview?.regions.find((candidate) => candidate.id === event.id);
      return region ? { options: withRegion(context.options, region, event.on) } : {};
    }),
    setAllRegions: assign(({ context, event }) => {
      if (event.type !== 'SET_ALL_REGIONS') return {};
      let options = context.options;
      for (const region of context.preview?.regions ?? []) options = withRegion(options, region, event.on);
      return { options };
    }),
  },
}).createMachine({
  id: 'import',
  context: ({ input }) => ({ mapId: input.mapId, files: [], options: {}, preview: null, progress: 0, reading: false, geocoding: null, error: null, notice: null, notes: [] }),
  initial: 'idle',
  on: {
    PICK: {
      target: '.preparing',
      reenter: true,
      guard: ({ event }) => event.files.length > 0,
      actions: assign(({ event }) => ({ files: orderImportFiles(event.files), options: {}, preview: null, error: null, notice: null, notes: [] })),
    },
    DISMISS: { actions: assign({ error: null, notice: null }) },
  },
  states: {
    idle: {},
    preparing: {
      invoke: {
        src: 'prepareFiles',
        input: ({ context }) => ({ files: context.files }),
        onDone: { target: 'sending', actions: assign(({ event }) => ({ files: event.output.files, notes: event.output.notes })) },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toApiError(event.error).message }) },
      },
      on: { CANCEL: { target: 'idle', actions: assign({ files: [], error: null }) } },
    },
    sending: {
      entry: assign({ progress: 0, reading: false, geocoding: null }),
      invoke: {
        src: 'importRequest',
        input: ({ context }) => ({ mapId: context.mapId, files: context.files, options: context.options }),
      },
      on: {
        PROGRESS: { actions: assign({ progress: ({ event }) => event.fraction }) },
        UPLOADED: { actions: assign({ reading: true }) },
        GEOCODING: { actions: assign({ geocoding: ({ event }) => ({ done: event.done, total: event.total }) }) },
        ANSWERED: { target: 'ready', actions: assign({ preview: ({ event }) => event.preview, error: null }) },
        FAILED: [
          // A re-preview refused: the last preview stays, with the refusal above it.
          { guard: ({ context }) => context.preview !== null, target: 'ready', actions: assign({ error: ({ event }) => event.message }) },
          { target: 'failed', actions: assign({ error: ({ event }) => event.message }) },
        ],
        SET_COLUMN: { guard: ({ context }) => context.preview !== null, target: 'sending', reenter: true, actions: 'setColumn' },
        TOGGLE_REGION: { guard: ({ context }) => context.preview !== null, target: '#import.ready.changing', actions: 'toggleRegion' },
        SET_ALL_REGIONS: { guard: ({ context }) => context.preview !== null, target: '#import.ready.changing', actions: 'setAllRegions' },
        CANCEL: { target: 'idle', actions: assign({ files: [], preview: null, options: {}, error: null }) },
      },
    },
    ready: {
      initial: 'settled',
      states: {
        settled: {},
        /** Regions ticked: the preview is asked again once the ticking stops. */
        changing: { after: { [REGION_SETTLE_MS]: '#import.sending' } },
      },
      on: {
        SET_COLUMN: { target: 'sending', actions: 'setColumn' },
        TOGGLE_REGION: { target: '.changing', reenter: true, actions: 'toggleRegion' },
        SET_ALL_REGIONS: { target: '.changing', reenter: true, actions: 'setAllRegions' },
        APPLY: { target: 'applying', actions: ['applying', assign({ error: null })] },
        CANCEL: { target: 'idle', actions: assign({ files: [], preview: null, options: {}, error: null }) },
      },
    },
    applying: {
      entry: assign({ progress: 0, reading: false, geocoding: null }),
      invoke: {
        src: 'importRequest',
        // The mapping is sent as shown, guessed or not, so what is recorded is what was previewed.
        input: ({ context }) => ({
          mapId: context.mapId,
          files: context.files,
          options: { ...context.options, columns: context.options.columns ?? context.preview?.mapping ?? undefined },
          apply: true,
        }),
      },
      on: {
        PROGRESS: { actions: assign({ progress: ({ event }) => event.fraction }) },
        UPLOADED: { actions: assign({ reading: true }) },
        GEOCODING: { actions: assign({ geocoding: ({ event }) => ({ done: event.done, total: event.total }) }) },
        ANSWERED: {
          target: 'idle',
          actions: [
            { type: 'applied', params: ({ context, event }) => ({ preview: event.preview, fileName: context.files[0]?.name ?? 'the file' }) },
            assign(({ context, event }) => ({ notice: appliedNotice(event.preview, context.files[0]?.name ?? 'the file'), files: [], preview: null, options: {}, error: null, notes: [] })),
          ],
        },
        FAILED: { target: 'ready', actions: assign({ error: ({ event }) => event.message }) },
        // The server may be recording it already: nothing to cancel, and nothing else to pick.
        PICK: {},
      },
    },
    failed: {
      on: { CANCEL: { target: 'idle', actions: assign({ files: [], error: null }) } },
    },
  },
});
