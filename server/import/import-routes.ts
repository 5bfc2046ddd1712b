/**
 * `POST /api/maps/{id}/import`: a file of locations, floors and groups brought into a map
 * (issue 15). Whoever may edit the map (owner, editors, admins), signed in with a verified
 * address, checked before the body is read; rate-limited like uploads.
 *
 * The body: the file's bytes (its kind from the content, `?filename=` and Content-Type), or
 * `multipart/form-data` with the file (the part named `file`, else the first file) and the
 * files it names (a Mapplic map's level drawings and images) as further parts, by file name.
 * `?mapping=` (JSON, events/map-import.ts ImportOptions) overrides the guessed columns;
 * `?layer=` makes an SVG's regions locations of that existing floor.
 *
 * Without `?apply=1` it answers the preview and changes nothing. With it, the drawings are
 * checked and stored as uploads are, and the edits recorded through the map's command handler:
 * in one append, or a big import's parts one append each (importAppends), taken back if one of
 * them cannot be recorded, so that history, undo and live editors see one import or none, and
 * no other user waits for all of it.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import { ErrorBody, WirePosition } from '../../events/function-results.js';
import { MapIdParams } from '../../events/http-api.js';
import type { Placement } from '../../events/geocoding.js';
import { withStoredFiles, type PlannedImport } from '../../events/import-planner.js';
import { ColumnMapping, IMPORT_FIELDS, ImportOptions, ImportPreview, type ImportProblem, type PlannedFloor } from '../../events/map-import.js';
import type { LayerFile, MapDocument } from '../../events/map-document.js';
import { IMPORT_CHUNK, type MapEdit as ImportEdit } from '../../events/map-edits.js';
import { isOverridden, MAX_LISTED_OVERRIDES, MAX_OVERRIDE_CHARACTERS, type DataSourceState, type SyncOverride } from '../../events/map-data-source.js';
import { applyEdits } from '../../events/map-edit-inverse.js';
import { formatPosition } from '../../events/position.js';
import type { IdGenerator } from '../clock.js';
import type { CommandMetadata } from '../commands/command-handler.js';
import { runMapCommand } from '../commands/map-commands.js';
import { sanitizeMapEdits } from '../content/rich-text-sanitizer.js';
import type { Database } from '../../ports/database.js';
import type { EventStore } from '../../ports/event-store.js';
import { isFileId, type FileStore } from '../files/file-store.js';
import { inspectUpload, type InspectedFile } from '../files/inspect-upload.js';
import { WorkerSvgSanitizer, type SvgSanitizer } from '../files/svg-sanitizer-pool.js';
import { activeMap, type MapHistory } from '../history/map-history.js';
import { requireMapAccess } from '../access/map-access-facts.js';
import { requireVerified } from '../http/access-hooks.js';
import { typed } from '../http/zod-routes.js';
import { UPLOAD_RATE } from '../routes/file-routes.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import { detectFormat } from './detect-format.js';
import type { ImportInput } from './import-input.js';
import { WorkerImportPlanner, type ImportPlanner } from './import-planner-pool.js';
import { importRefusal } from './refusal.js';
import { refuseUnsafeUrlText } from '../security/unsafe-text-hook.js';
import type { Config } from '../config.js';
import { ImportProgress } from '../geocoding/import-progress.js';
import { RemoteGeocoder } from '../geocoding/remote-geocoder.js';

export interface ImportRouteOptions {
  db: Database;
  store: EventStore;
  ids: IdGenerator;
  history: MapHistory;
  files: FileStore;
  /** Largest file accepted, in bytes (IMPORT_LIMIT). */
  importLimit: number;
  rateLimiter?: RateLimiter;
  svgSanitizer?: SvgSanitizer;
  /** Where files are parsed and planned (default: a worker thread, import-planner-pool.ts). */
  planner?: ImportPlanner;
  /** The geocoder of streets rows with an address are sent to (GEOCODER_URL), or none: the embedded geocoder only. */
  geocoder?: Config['geocoder'] | RemoteGeocoder;
  /** Said in the geocoder's User-Agent. */
  publicUrl?: string;
  /** Handed what imports run with, for others that import (a map's data source sync, map-sync.ts). */
  onDeps?: (deps: ImportDeps) => void;
}

/** What an import runs with: the stores, the sanitiser, the planner's worker and the geocoder. */
export interface ImportDeps {
  db: Database;
  store: EventStore;
  ids: IdGenerator;
  history: MapHistory;
  files: FileStore;
  importLimit: number;
  sanitizer: SvgSanitizer;
  planner: ImportPlanner;
  geocoder: RemoteGeocoder | null;
  progress: ImportProgress;
}

/** One import: a file into a map, previewed or applied, by `uid` (who may edit it: checked by the caller). */
export interface ImportArgs {
  mapId: string;
  uid: string;
  meta: CommandMetadata;
  /** A fresh command id (a big import's parts each have one). */
  newId: () => string;
  upload: { bytes: Buffer; filename: string; contentType: string; attachments: Map<string, Buffer> };
  options: ImportOptions;
  layer?: string;
  progressToken?: string;
  apply: boolean;
  log: { info(details: object, message: string): void; warn(details: object, message: string): void; error(details: object, message: string): void };
  /**
   * A data source's sync (issue 30 item 4): recorded as a sync under `name`; rows are keyed to
   * locations by id, rows that change nothing are left out, and the locations of `keys` (what
   * earlier syncs brought) whose key the file no longer has are removed in the same import.
   */
  sync?: SyncArgs;
}

/** A sync's data source as its diff needs it (events/map-data-source.ts DataSourceState). */
export interface SyncArgs {
  name: string;
  keys: readonly string[];
  /** What earlier syncs applied, by key and field (hashes): a field whose value differs was edited in Mapfold. */
  applied?: DataSourceState['applied'];
  /** The fields the owner chose to keep, by key. */
  kept?: DataSourceState['kept'];
}

export interface SyncCounts {
  added: number;
  changed: number;
  removed: number;
  /** Fields edited in Mapfold the sync left alone (overridden), kept ones too. */
  overridden: number;
}

export interface ImportOutcome {
  result: ImportPreview;
  position: string | null;
  /** A sync's counts, by key. */
  sync?: SyncCounts;
  /** A sync's overridden fields, with the source's values (listed up to the limits), and how many more. */
  overrides?: { list: SyncOverride[]; more: number };
}

const sameValue = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/**
 * A sync's edits from the import's plan: recorded as a sync, each update down to the fields
 * that differ (none: left out), and the keys gone from the file removed with the first part.
 * A field edited in Mapfold since a sync applied it (its value is not the applied one), or one
 * the owner chose to keep, is left as it is and listed as overridden with the source's value
 * (a position's precision goes with its position). A file with no rows at all is refused: a
 * source that answers empty keeps the map as it is.
 */
export function syncEdits(document: MapDocument, edits: readonly ImportEdit[], sync: SyncArgs): { edits: ImportEdit[]; counts: SyncCounts; overrides: { list: SyncOverride[]; more: number } } {
  const byId = new Map(document.locations.map((location) => [location.id, location]));
  const inFile = new Set<string>();
  const out: ImportEdit[] = [];
  const overrides: SyncOverride[] = [];
  let more = 0;
  let overridden = 0;
  let characters = 0;
  let added = 0;
  let changed = 0;
  for (const edit of edits) {
    if (edit.type !== 'ImportApplied') {
      out.push(edit);
      continue;
    }
    for (const location of edit.locations) inFile.add(location.id);
    const updates = edit.updates.flatMap((update) => {
      inFile.add(update.id);
      const current = byId.get(update.id) as Record<string, unknown> | undefined;
      const kept = sync.kept?.[update.id];
      const differing = Object.entries(update.changes).filter(([field, value]) => value !== undefined && !sameValue(current?.[field], value));
      const held = differing.filter(([field]) => field !== 'precision' && (kept?.includes(field) || isOverridden(sync, update.id, field, current?.[field])));
      if (held.length > 0) {
        const listed = new Set(held.map(([field]) => field));
        if (listed.has('position') && 'precision' in update.changes) held.push(['precision', update.changes.precision]);
        overridden += listed.size;
        const source = Object.fromEntries(held) as SyncOverride['source'];
        const size = JSON.stringify(source).length;
        if (overrides.length < MAX_LISTED_OVERRIDES && characters + size <= MAX_OVERRIDE_CHARACTERS) {
          overrides.push({ id: update.id, source });
          characters += size;
        } else more += listed.size;
      }
      const heldFields = new Set(held.map(([field]) => field));
      const changes = Object.fromEntries(differing.filter(([field]) => !heldFields.has(field)));
      return Object.keys(changes).length > 0 ? [{ id: update.id, changes }] : [];
    });
    added += edit.locations.length;
    changed += updates.length;
    out.push({ ...edit, source: { ...edit.source, sync: true }, updates });
  }
  if (inFile.size === 0) {
    throw new DomainError('invalid-argument', 'The data source has no rows (or none could be read): nothing was changed, and the map keeps its last synced data.');
  }
  const removed = sync.keys.filter((key) => byId.has(key) && !inFile.has(key));
  if (removed.length > IMPORT_CHUNK) throw new DomainError('invalid-argument', `This sync would remove ${removed.length.toLocaleString('en')} locations at once; at most ${IMPORT_CHUNK.toLocaleString('en')} are removed by one sync. Check the source.`);
  const first = out.findIndex((edit) => edit.type === 'ImportApplied');
  if (removed.length > 0) {
    const target = out[first];
    if (target?.type === 'ImportApplied') out[first] = { ...target, removed };
  }
  // Parts that carry nothing any more (every row unchanged) are not recorded.
  const kept = out.filter((edit) => edit.type !== 'ImportApplied' || edit.layers.length + edit.groups.length + edit.locations.length + edit.updates.length + (edit.removed?.length ?? 0) > 0);
  return { edits: kept, counts: { added, changed, removed: removed.length, overridden }, overrides: { list: overrides, more } };
}

/** Files uploaded with the main one at most (a Mapplic map's levels and images). */
const MAX_ATTACHMENTS = 200;

const ImportQuery = z.object({
  filename: z.string().max(500).optional(),
  mapping: z.string().max(200_000).optional(),
  layer: z.string().max(200).optional(),
  apply: z.string().max(10).optional(),
  /** A token the client names this import by, to ask its geocoding's progress (GET …/import/progress?token=). */
  progress: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/).optional(),
});

const ProgressQuery = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/) });
const ProgressAnswer = z.object({
  result: z.object({ phase: z.enum(['geocoding', 'planning', 'done', 'unknown']), done: z.number().int(), total: z.number().int() }),
});

const ImportAnswer = z.object({
  result: ImportPreview,
  /** The log position of the import's events (an apply), for reading one's own writes; null for a preview. */
  position: WirePosition.nullable(),
});

function formatLimit(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB) return `${Number.isInteger(bytes / MB) ? bytes / MB : (bytes / MB).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

export function importTooLarge(limit: number): DomainError {
  return new DomainError(
    'invalid-argument',
    `The file is too large to import: the limit is ${formatLimit(limit)}. Split it into smaller files and import them one after another.`,
  );
}

/** `?mapping=` in the user's words: ImportOptions, or a bare column mapping (`{"title": "Name"}`). */
export function readMappingOption(text: string | undefined): ImportOptions {
  if (text === undefined || text.trim() === '') return {};
  const example = 'like {"columns": {"title": "Store name", "lat": "Latitude", "lng": "Longitude"}}';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new DomainError('invalid-argument', `The column mapping (?mapping=) is not JSON. Give it ${example}.`);
  }
  if (typeof json === 'object' && json !== null && !Array.isArray(json) && !('columns' in json || 'skipRegions' in json || 'includeRegions' in json)) {
    json = { columns: json };
  }
  const parsed = ImportOptions.safeParse(json);
  if (parsed.success) return parsed.data;
  const columns = (json as { columns?: unknown }).columns;
  if (columns && typeof columns === 'object') {
    const unknownField = Object.keys(columns).find((key) => !(IMPORT_FIELDS as readonly string[]).includes(key));
    if (unknownField) throw new DomainError('invalid-argument', `The column mapping (?mapping=) names the field “${unknownField.slice(0, 60)}”, which locations do not have. Fields: ${IMPORT_FIELDS.join(', ')}.`);
    if (!ColumnMapping.safeParse(columns).success) throw new DomainError('invalid-argument', `The column mapping (?mapping=) must give each field one column name (text of 1 to 200 characters), ${example}.`);
  }
  throw new DomainError('invalid-argument', `The column mapping (?mapping=) could not be used: give it ${example}, and regions to leave out as {"skipRegions": ["id", …]}.`);
}

const baseName = (name: string) => name.split(/[\\/]/).pop()!.trim();

/** The main file and its companions, from a raw body or a form. */
async function readUpload(request: FastifyRequest, limit: number): Promise<{ bytes: Buffer; filename: string; contentType: string; attachments: Map<string, Buffer> }> {
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const named = (request.query as { filename?: string }).filename?.trim() ?? '';
  if (!request.isMultipart()) {
    const body = request.body;
    const bytes = Buffer.isBuffer(body) ? body : Buffer.alloc(0);
    return { bytes, filename: baseName(named), contentType, attachments: new Map() };
  }
  const files: Array<{ field: string; filename: string; mimetype: string; bytes: Buffer }> = [];
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (files.length > MAX_ATTACHMENTS) throw new DomainError('invalid-argument', `Send at most ${MAX_ATTACHMENTS} files with one import.`);
      files.push({ field: part.fieldname, filename: baseName(part.filename ?? ''), mimetype: (part.mimetype ?? '').toLowerCase(), bytes: await part.toBuffer() });
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw importTooLarge(limit);
    if (error instanceof DomainError) throw error;
    throw new DomainError('invalid-argument', 'The form could not be read: send the file as multipart/form-data with a part named “file”, or send its bytes as the request body.');
  }
  const main = files.find((file) => file.field === 'file') ?? files[0];
  if (!main) throw new DomainError('invalid-argument', 'The form holds no file: add the file to import as a part named “file”.');
  const attachments = new Map<string, Buffer>();
  for (const file of files) if (file !== main && file.filename) attachments.set(file.filename, file.bytes);
  return { bytes: main.bytes, filename: main.filename || baseName(named), contentType: main.mimetype || contentType, attachments };
}

/** A stored file's text (a floor's SVG), or null. */
async function storedText(files: FileStore, url: string): Promise<string | null> {
  const id = /^\/files\/([A-Za-z0-9_-]{22})$/.exec(url)?.[1];
  if (!id || !isFileId(id)) return null;
  const opened = await files.open(id);
  if (!opened) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of opened.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

export async function importRoutes(scope: FastifyInstance, options: ImportRouteOptions): Promise<void> {
  const { db, files, importLimit, rateLimiter, history } = options;
  const sanitizer = options.svgSanitizer ?? new WorkerSvgSanitizer();
  if (!options.svgSanitizer) scope.addHook('onClose', () => sanitizer.close());
  const planner = options.planner ?? new WorkerImportPlanner();
  if (!options.planner) scope.addHook('onClose', () => planner.close());
  const geocoder = !options.geocoder || options.geocoder instanceof RemoteGeocoder
    ? (options.geocoder ?? null)
    : new RemoteGeocoder({ ...options.geocoder, userAgent: `Mapfold geocoding on import${options.publicUrl ? ` (${options.publicUrl})` : ''}` });
  const progress = new ImportProgress();
  const deps: ImportDeps = { db, store: options.store, ids: options.ids, history, files, importLimit, sanitizer, planner, geocoder, progress };
  options.onDeps?.(deps);

  // How far an import's geocoding has got (the preview's progress bar): the caller's own imports of a map they may edit.
  typed(scope).get(
    '/api/maps/:id/import/progress',
    { schema: { tags: ['maps'], description: 'How far an import named by ?progress= on POST /api/maps/{id}/import has got in placing its rows by address.', params: MapIdParams, querystring: ProgressQuery, response: { 200: ProgressAnswer, '4xx': ErrorBody } } },
    async (request) => {
      const principal = requireVerified(request);
      await requireMapAccess(db, principal, request.params.id, 'edit');
      const state = progress.get(principal.uid, request.params.id, request.query.token);
      return { result: state ?? { phase: 'unknown' as const, done: 0, total: 0 } };
    },
  );

  await scope.register(async (app) => {
    // Every body is a file: bytes up to the import limit, or a form of files.
    app.removeAllContentTypeParsers();
    await app.register(multipart, { limits: { fileSize: importLimit, files: MAX_ATTACHMENTS + 1, fields: 20, parts: MAX_ATTACHMENTS + 21 } });
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: importLimit }, (_request, body, done) => done(null, body));
    // The caller and their right to edit the map, before (perhaps) megabytes are read.
    app.addHook('preParsing', async (request) => {
      const principal = requireVerified(request);
      // The app refuses NUL and lone surrogates at preValidation, after the body: here first.
      await refuseUnsafeUrlText(request);
      const { id } = request.params as { id: string };
      request.mapAccess = await requireMapAccess(db, principal, id, 'edit');
      if (rateLimiter) await rateLimiter.hit('import', UPLOAD_RATE, [principal.uid]);
    });
    app.setErrorHandler((error, _request, reply) => {
      if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        reply.header('connection', 'close');
        throw importTooLarge(importLimit);
      }
      throw error;
    });

    const schema = {
      tags: ['maps'],
      description:
        'Imports a file into the map: a CSV/TSV table, Mapplic JSON or CSV, GeoJSON, KML, store-locator JSON, an SVG, or a Mapfold JSON export. The body is the file (or multipart/form-data with the file and the drawings it names). Answers a preview; with ?apply=1 records the import.',
      params: MapIdParams,
      querystring: ImportQuery,
      response: { 200: ImportAnswer, '4xx': ErrorBody },
    };
    typed(app).post('/api/maps/:id/import', { bodyLimit: importLimit, schema }, async (request) => {
      const principal = requireVerified(request);
      const query = request.query;
      const apply = query.apply !== undefined && ['1', 'true', 'yes'].includes(query.apply.toLowerCase());
      const importOptions = readMappingOption(query.mapping);
      const upload = await readUpload(request, importLimit);
      if (upload.bytes.byteLength > importLimit) throw importTooLarge(importLimit);
      const meta: CommandMetadata = {
        principal: request.principal,
        now: request.server.clock.now(),
        correlationId: request.correlationId,
        commandId: request.server.ids.uuid(),
      };
      const outcome = await runImport(deps, {
        mapId: request.params.id,
        uid: principal.uid,
        meta,
        newId: () => request.server.ids.uuid(),
        upload,
        options: importOptions,
        ...(query.layer !== undefined ? { layer: query.layer } : {}),
        ...(query.progress !== undefined ? { progressToken: query.progress } : {}),
        apply,
        log: request.log,
      });
      return { result: outcome.result, position: outcome.position };
    });
  });
}

/**
 * The appends an import's edits are recorded in: each part of a big import (an ImportApplied
 * with `part`, up to IMPORT_CHUNK locations) its own, the edits between parts with the part
 * before them. An import of one part stays one append, all or nothing.
 */
export function importAppends(edits: readonly ImportEdit[]): ImportEdit[][] {
  const appends: ImportEdit[][] = [];
  let current: ImportEdit[] = [];
  for (const edit of edits) {
    if (edit.type === 'ImportApplied' && edit.part && edit.part.number > 1 && current.length > 0) {
      appends.push(current);
      current = [];
    }
    current.push(edit);
  }
  if (current.length > 0) appends.push(current);
  return appends;
}

/**
 * Takes back the parts of an import recorded before one failed: their inverses (computed
 * against the map each part met), last part first, as one command; what no longer applies
 * (a location someone removed meanwhile) is left out. Answers whether that was recorded.
 */
async function takeBackParts(
  commands: Parameters<typeof runMapCommand>[0] & { history: MapHistory },
  mapId: string,
  recorded: readonly ImportEdit[][],
  meta: CommandMetadata,
  log: { error(details: object, message: string): void },
): Promise<boolean> {
  try {
    const document = activeMap((await commands.history.stateAt(mapId)).state).document;
    const present = new Set(document.locations.map((location) => location.id));
    const inverse = [...recorded]
      .reverse()
      .flat()
      .flatMap((edit): ImportEdit[] => {
        if (edit.type !== 'LocationsRemoved') return [edit];
        const ids = edit.ids.filter((id) => present.has(id));
        return ids.length > 0 ? [{ ...edit, ids }] : [];
      });
    const { applied } = applyEdits(document, inverse);
    if (applied.length > 0) await runMapCommand(commands, { type: 'EditMap', data: { mapId, edits: applied } }, meta);
    return true;
  } catch (error) {
    log.error({ err: error, mapId }, 'taking back the recorded parts of an import failed');
    return false;
  }
}

/**
 * Yields between edits while rich text is made safe: an import's edits are chunks of 5,000
 * locations, and sanitising them all at once held every other request.
 */
async function sanitizedInTurns(edits: ImportEdit[]): Promise<ImportEdit[]> {
  const safe: ImportEdit[] = [];
  for (const edit of edits) {
    safe.push(...sanitizeMapEdits([edit]));
    await new Promise((resolve) => setImmediate(resolve));
  }
  return safe;
}

/**
 * The drawings of the floors an import's locations may link to, as SVG text for the planner
 * to read their regions: existing floors' stored SVGs (by layer id), and drawings uploaded or
 * made with the file (by planned floor key). Read only when the file has locations.
 */
async function floorDrawings(document: MapDocument, floors: readonly PlannedFloor[], inspected: Map<string, InspectedFile>, files: FileStore): Promise<Array<[string, string]>> {
  const drawings: Array<[string, string]> = [];
  for (const layer of document.layers) {
    if (layer.file?.kind !== 'svg') continue;
    const text = await storedText(files, layer.file.url);
    if (text) drawings.push([layer.id, text]);
  }
  for (const floor of floors) {
    const drawing = floor.drawing;
    if (drawing?.kind === 'generated') drawings.push([floor.key, drawing.svg]);
    else if (drawing?.kind === 'attachment') {
      const found = inspected.get(drawing.name);
      if (found?.meta.kind === 'svg') drawings.push([floor.key, new TextDecoder().decode(found.bytes)]);
    } else if (drawing?.kind === 'stored' && drawing.type === 'svg') {
      const text = await storedText(files, drawing.url);
      if (text) drawings.push([floor.key, text]);
    }
  }
  return drawings;
}

export async function runImport(deps: ImportDeps, args: ImportArgs): Promise<ImportOutcome> {
  const { db, files, importLimit, history, sanitizer, planner, geocoder, progress } = deps;
  const { mapId, upload, apply, meta } = args;
  const importOptions = args.options;
  const query = { layer: args.layer, progress: args.progressToken };
  const principal = { uid: args.uid };
  const request = { log: args.log };

  const map = activeMap((await history.stateAt(mapId)).state);
  const document = map.document;
  if (query.layer !== undefined && !document.layers.some((layer) => layer.id === query.layer)) {
    throw new DomainError('invalid-argument', `This map has no floor with the id “${query.layer.slice(0, 64)}” (?layer=). Its floors: ${document.layers.map((l) => l.id).join(', ')}.`);
  }

  const detected = detectFormat({ filename: upload.filename, contentType: upload.contentType, bytes: upload.bytes });
  if ('refusal' in detected) throw new DomainError('invalid-argument', detected.refusal);
  const format = detected.format;
  const remembered = map.lastImport?.mapping ? (ColumnMapping.safeParse(map.lastImport.mapping).data ?? null) : null;
  const input: ImportInput = {
    bytes: upload.bytes,
    text: detected.text,
    filename: upload.filename,
    contentType: upload.contentType,
    attachments: upload.attachments,
    options: importOptions,
    rememberedMapping: remembered,
    document,
    ...(query.layer !== undefined ? { targetLayer: query.layer } : {}),
  };
  // Parsed and planned in the planner's worker thread: a big file keeps no one else waiting.
  let parsed;
  try {
    parsed = await planner.parse(format, input, geocoder !== null);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    request.log.warn({ err: error, format }, 'an import parser failed');
    throw importRefusal(format, 'it could not be read to the end', 'Check that the file is complete (export it again), or save its locations as CSV and import that.');
  }
  let planned: PlannedImport;
  let handedOver = false;
  const inspected = new Map<string, InspectedFile>();
  try {
    // Drawings uploaded with the file, checked (and SVGs sanitised) as uploads are, before anything is planned on them.
    const problems: ImportProblem[] = [];
    if (detected.archived) problems.push({ row: null, field: null, message: `The placemarks were read from “${detected.archived}” in the KMZ; its images (icons, overlays) are not used.` });
    if (detected.encoding === 'windows-1252') {
      problems.push({ row: null, field: null, message: 'The file is not UTF-8 text, so it was read as Windows-1252 (Western European, as Excel on Windows saves CSV). If letters such as é or ü look wrong in the preview, save the file as CSV UTF-8 and import it again.' });
    }
    const inspect = async (floor: PlannedFloor) => {
      const drawing = floor.drawing;
      if (drawing?.kind !== 'attachment' || inspected.has(drawing.name)) return;
      const bytes = upload.attachments.get(drawing.name) ?? upload.attachments.get(baseName(drawing.name));
      if (!bytes) return;
      try {
        const checked = await inspectUpload(bytes, importLimit, sanitizer);
        inspected.set(drawing.name, checked);
        // What the sanitiser took out of the drawing is said, as an upload says it.
        for (const part of checked.removed) problems.push({ row: null, field: null, message: `The drawing “${drawing.name}”: ${part.message}` });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        problems.push({ row: null, field: null, message: `The drawing “${drawing.name}” of the floor “${floor.name}” was not used: ${error.message}` });
      }
    };
    for (const floor of parsed.floors) await inspect(floor);

    const drawings = parsed.hasLocations ? await floorDrawings(document, parsed.floors, inspected, files) : [];
    // Rows with a street address and no coordinates asked of the geocoder of streets (GEOCODER_URL), each address once.
    let remote: Array<[string, Placement | null]> | undefined;
    if (geocoder && parsed.addresses.length > 0) {
      const token = query.progress;
      const answers = await geocoder.placeAll(
        parsed.addresses,
        token ? (state) => progress.set(principal.uid, mapId, token, { phase: 'geocoding', ...state }) : undefined,
        (error) => request.log.warn({ err: error, mapId }, 'the geocoder did not answer'),
      );
      remote = [...answers];
      if (parsed.addresses.length > geocoder.maxAddresses) {
        problems.push({ row: null, field: 'address', message: `${parsed.addresses.length.toLocaleString('en')} addresses were to be placed: the first ${geocoder.maxAddresses.toLocaleString('en')} were sent to the street geocoder, the others placed by city or postcode.` });
      }
      if (token) progress.set(principal.uid, mapId, token, { phase: 'planning', done: answers.size, total: answers.size });
    }
    handedOver = true;
    planned = await planner.plan(parsed.job, {
      ...(remote ? { remote } : {}),
      document,
      sourceName: args.sync?.name ?? (upload.filename || `${format} file`),
      problems,
      drawings,
      sizes: [...inspected].map(([name, found]) => [name, { width: found.meta.width, height: found.meta.height }]),
    });
  } finally {
    if (!handedOver) planner.drop(parsed.job);
  }
  if (query.progress) progress.set(principal.uid, mapId, query.progress, { phase: 'done', done: 1, total: 1 });
  let sync: SyncCounts | undefined;
  let overrides: ImportOutcome['overrides'];
  if (args.sync) {
    const diffed = syncEdits(document, planned.edits, args.sync);
    planned = { ...planned, edits: diffed.edits };
    sync = diffed.counts;
    overrides = diffed.overrides;
    if (apply && sync.added + sync.changed + sync.removed === 0) return { result: { ...planned.preview, revision: null }, position: null, sync, overrides };
  }
  if (!apply) return { result: { ...planned.preview, revision: null }, position: null, ...(sync ? { sync } : {}), ...(overrides ? { overrides } : {}) };

  if (planned.edits.length === 0) {
    const first = planned.preview.problems[0]?.message;
    throw importRefusal(format, `nothing in it can be imported${first ? ` (${first.replace(/\.$/, '')})` : ''}`, 'Check the preview’s problems and the column mapping, then import again.');
  }
  // The drawings are stored as uploads are, then put on their floors.
  const stored = new Map<string, LayerFile>();
  for (const file of planned.files) {
    let checked: InspectedFile | undefined;
    if (file.drawing.kind === 'attachment') checked = inspected.get(file.drawing.name);
    else checked = await inspectUpload(Buffer.from(file.drawing.svg, 'utf8'), Math.max(importLimit, 1), sanitizer);
    if (!checked) continue;
    const put = await files.put(checked.bytes, { ...checked.meta, owner: principal.uid });
    stored.set(file.layer, { kind: put.kind, url: put.url, width: put.width, height: put.height });
  }
  const edits = await sanitizedInTurns(withStoredFiles(planned.edits, stored, planned.files));
  // A big import is recorded part by part, one append each (importAppends): one append of
  // twenty 5,000-location events held the embedded database for ten seconds, and every other
  // user with it (issue 26 item 8). Still one import to its author: the answer comes once
  // every part is in (the editor makes them one undo step), and a part that cannot be
  // recorded takes the parts before it back, so no half import is left behind.
  const appends = importAppends(edits);
  const commands = { store: deps.store, db, ids: deps.ids, history };
  const recorded: ImportEdit[][] = [];
  let outcome;
  for (const [index, part] of appends.entries()) {
    try {
      const before = appends.length > 1 ? activeMap((await history.stateAt(mapId)).state).document : null;
      outcome = await runMapCommand(commands, { type: 'EditMap', data: { mapId, edits: part } }, index === 0 ? meta : { ...meta, commandId: args.newId() });
      if (before) recorded.push(applyEdits(before, part).inverse);
    } catch (error) {
      const takenBack = recorded.length === 0 || (await takeBackParts(commands, mapId, recorded, { ...meta, commandId: args.newId() }, request.log));
      if (!takenBack) {
        request.log.error({ err: error, mapId, partsRecorded: index, parts: appends.length }, 'an import stopped midway and its recorded parts could not be taken back');
        throw new DomainError(
          'aborted',
          `The file could not be imported to the end: ${index} of its ${appends.length} parts were imported and could not be taken back. Undo them in the map's history, then import the file again.`,
        );
      }
      // The plan was made against the map as it was read; an edit since (a location of the same id) makes it stale.
      if (error instanceof DomainError && error.code === 'invalid-argument' && /^edits\.\d+\.(layers|groups|locations|updates|id)/.test(error.message)) {
        request.log.info({ mapId, reason: error.message, partsTakenBack: recorded.length }, 'an import met a changed map');
        throw new DomainError('aborted', 'The map changed while the file was being imported, so nothing was imported. Preview the file again and import it.');
      }
      throw error;
    }
  }
  if (!outcome) throw new DomainError('internal', 'An import with no edits was about to be recorded.');
  request.log.info({ mapId, format, locations: planned.preview.counts.locations, updated: planned.preview.counts.updated, ...(sync ? { sync } : {}) }, 'import applied');
  return {
    result: { ...planned.preview, revision: String(outcome.revision) },
    position: outcome.position ? formatPosition(outcome.position) : null,
    ...(sync ? { sync } : {}),
    ...(overrides ? { overrides } : {}),
  };
}
