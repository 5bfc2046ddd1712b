/**
 * Live data from a sheet or URL (issue 30 item 4): a map's data source, a web address (a
 * published Google Sheet as CSV, any CSV, GeoJSON or KML) with the column that keys its rows
 * to the map's locations, fetched on its schedule or by "Sync now". Recorded on the map's
 * stream (`MapDataSourceSet`); each sync is an import (`ImportApplied` with `source.sync`) that
 * adds, changes and removes locations by key in one step, undone as one.
 */
import { z } from 'zod';
import { locationFields } from './map-document.js';
import { LocationPatch, type ImportSource } from './map-edits.js';
import { ColumnMapping, ImportPreview } from './map-import.js';

const MapId = z.string({ error: 'Map id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Map id is not valid.');

export const SYNC_SCHEDULES = ['manual', 'hourly', 'daily'] as const;
export type SyncSchedule = (typeof SYNC_SCHEDULES)[number];

/** How long after a sync the next is due, by schedule. */
export const SYNC_EVERY_MS: Record<Exclude<SyncSchedule, 'manual'>, number> = { hourly: 60 * 60 * 1000, daily: 24 * 60 * 60 * 1000 };

export const DataSource = z.object({
  /** http(s) only; checked again, host and addresses, by the safe fetcher at every sync. */
  url: z
    .string({ error: 'Give the data source’s web address.' })
    .trim()
    .min(1, 'Give the data source’s web address.')
    .max(2000, 'The address is too long (2,000 characters at most).')
    .refine((text) => /^https?:\/\//i.test(text), 'The address must start with https:// or http://.'),
  /** The column (a GeoJSON/KML property) whose value is each row's location id. */
  keyColumn: z.string({ error: 'Name the key column.' }).trim().min(1, 'Name the key column.').max(200, 'The key column’s name is too long (200 characters at most).'),
  schedule: z.enum(SYNC_SCHEDULES, { error: 'The schedule must be manual, hourly or daily.' }),
  /** Columns for the locations' other fields, as an import's mapping; guessed when absent. */
  mapping: ColumnMapping.optional(),
  /** What history calls it ("Sync from Stores sheet"); the address's file name when absent. */
  name: z.string().trim().min(1).max(100).optional(),
});
export type DataSource = z.infer<typeof DataSource>;

/** The map's data source set, changed (`source`) or taken off (null). */
export const MapDataSourceSet = z.object({
  type: z.literal('MapDataSourceSet'),
  data: z.object({ mapId: z.string(), source: DataSource.nullable(), at: z.iso.datetime({ offset: true }), by: z.string() }),
});
export type MapDataSourceSet = z.infer<typeof MapDataSourceSet>;

/**
 * A scheduled sync claimed (the scheduler's, server/import/sync-scheduler.ts): recorded only
 * while the source is due, so of several processes' schedulers one claims it and runs it.
 */
export const MapDataSourceSyncStarted = z.object({
  type: z.literal('MapDataSourceSyncStarted'),
  data: z.object({ mapId: z.string(), at: z.iso.datetime({ offset: true }) }),
});
export type MapDataSourceSyncStarted = z.infer<typeof MapDataSourceSyncStarted>;

/** A sync failed (`error`, shown in the editor) or, after failing, worked again (null). Recorded on a change only. */
export const MapDataSourceSyncFailed = z.object({
  type: z.literal('MapDataSourceSyncFailed'),
  data: z.object({ mapId: z.string(), at: z.iso.datetime({ offset: true }), error: z.string().max(1000).nullable() }),
});
export type MapDataSourceSyncFailed = z.infer<typeof MapDataSourceSyncFailed>;

/**
 * Overridden fields (issue 30 item 4): a synced location's field whose value in the map is no
 * longer the one the last sync applied was edited in Mapfold. A sync leaves it alone (never
 * silently overwritten) and says so; the owner chooses, per field, to keep Mapfold's value or
 * to use the source's.
 */
export const SYNC_FIELDS = Object.keys(locationFields) as Array<keyof typeof locationFields>;
export type SyncField = (typeof SYNC_FIELDS)[number];
/** The fields the editor lists (a position's precision goes with the position). */
export const LISTED_SYNC_FIELDS = SYNC_FIELDS.filter((field) => field !== 'precision');

/** A synced location's overridden fields, with the source's values at the last sync. */
export const SyncOverride = z.object({ id: z.string().min(1).max(64), source: LocationPatch });
export type SyncOverride = z.infer<typeof SyncOverride>;
/** Overridden locations one event lists at most; the rest are counted (and still kept, as every overridden field is). */
export const MAX_LISTED_OVERRIDES = 1000;
/** Characters of JSON the listed source values take at most. */
export const MAX_OVERRIDE_CHARACTERS = 1_000_000;

/**
 * What a sync found overridden (the map's value kept, the source's recorded here), recorded
 * after each applied sync whose list differs from the last: the editor lists these.
 */
export const MapDataSourceOverridesFound = z.object({
  type: z.literal('MapDataSourceOverridesFound'),
  data: z.object({
    mapId: z.string(),
    at: z.iso.datetime({ offset: true }),
    overrides: z.array(SyncOverride).max(MAX_LISTED_OVERRIDES),
    /** Overridden fields left off the list (too many to list). */
    more: z.number().int().min(0).default(0),
  }),
});
export type MapDataSourceOverridesFound = z.infer<typeof MapDataSourceOverridesFound>;

export const OVERRIDE_CHOICES = ['keep', 'source'] as const;
export type OverrideChoice = (typeof OVERRIDE_CHOICES)[number];

/**
 * The owner's choices for overridden fields: `keep` (later syncs leave the field alone, until
 * the choice changes) or `source` (the source's value, recorded in the same append as an
 * `ImportApplied` of the source (`overrides`), so the change is in history and is one undo step).
 */
export const MapDataSourceOverridesResolved = z.object({
  type: z.literal('MapDataSourceOverridesResolved'),
  data: z.object({
    mapId: z.string(),
    at: z.iso.datetime({ offset: true }),
    by: z.string(),
    choices: z.array(z.object({ id: z.string().min(1).max(64), field: z.enum(SYNC_FIELDS), choice: z.enum(OVERRIDE_CHOICES) })).min(1).max(MAX_LISTED_OVERRIDES),
  }),
});
export type MapDataSourceOverridesResolved = z.infer<typeof MapDataSourceOverridesResolved>;

export const DATA_SOURCE_EVENT_TYPES: ReadonlySet<string> = new Set(['MapDataSourceSet', 'MapDataSourceSyncStarted', 'MapDataSourceSyncFailed', 'MapDataSourceOverridesFound', 'MapDataSourceOverridesResolved']);
export type DataSourceEvent = MapDataSourceSet | MapDataSourceSyncStarted | MapDataSourceSyncFailed | MapDataSourceOverridesFound | MapDataSourceOverridesResolved;

export type MapDataSourceCommand =
  | { type: 'SetMapDataSource'; data: { mapId: string; source: DataSource | null } }
  /** The scheduler's claim of a due sync: nothing when it is not due (another process claimed it). */
  | { type: 'StartScheduledSync'; data: { mapId: string } }
  /** A sync's outcome: recorded when the error state changes. */
  | { type: 'RecordSyncOutcome'; data: { mapId: string; error: string | null } }
  /** What an applied sync found overridden: recorded when the list changes. */
  | { type: 'RecordSyncOverrides'; data: { mapId: string; overrides: SyncOverride[]; more: number } }
  /** The owner's choices for overridden fields. */
  | { type: 'ResolveSyncOverrides'; data: { mapId: string; overrides: Array<{ key: string; field: SyncField; choice: OverrideChoice }> } };

/** Whether a scheduled sync is due at `now`: a scheduled source synced once (the first is previewed by hand), its interval past since the last sync or claim. */
export function isSyncDue(state: DataSourceState | null | undefined, now: Date): boolean {
  if (!state || state.source.schedule === 'manual' || state.lastSyncAt === null) return false;
  const last = Math.max(Date.parse(state.lastSyncAt), state.lastAttemptAt ? Date.parse(state.lastAttemptAt) : 0);
  return now.getTime() - last >= SYNC_EVERY_MS[state.source.schedule];
}

/** What the map aggregate keeps of its data source. */
export interface DataSourceState {
  source: DataSource;
  /** The location ids the syncs brought (a later sync removes those whose key has gone). */
  keys: string[];
  /** When the last sync was recorded (ISO), or null: never synced. */
  lastSyncAt: string | null;
  /** When the scheduler last claimed a sync (ISO). */
  lastAttemptAt?: string | null;
  /** The last sync's failure, until one works again. */
  lastError?: string | null;
  /**
   * Per synced location (by key) and field, a hash ({@link valueHash}) of the value the last
   * sync applied (or the owner took from the source); a field absent from a location's entry
   * was applied as its default. A location with no entry: none known (synced before this was
   * kept, from a snapshot), and nothing of it counts as overridden.
   */
  applied?: Record<string, Record<string, string>>;
  /** What the last applied sync found overridden, with the source's values. */
  overrides?: SyncOverride[];
  /** Overridden fields left off {@link overrides}. */
  moreOverrides?: number;
  /** The fields the owner chose to keep Mapfold's value of, by key: syncs leave them alone. */
  kept?: Record<string, string[]>;
  /** The last sync's file format (what the source's values the owner takes are recorded as). */
  format?: ImportSource['format'];
}

/** The value a location's field has when none is given (what an added location's absent field was applied as). */
const FIELD_DEFAULTS: Record<string, unknown> = {
  about: '', description: '', image: null, thumbnail: null, link: null, phone: '', hours: '', position: null, element: null,
  zoom: null, marker: 'pin', color: null, label: '', groups: [], hidden: false, entrances: [], precision: null,
};

/** A short hash of a field's value (JSON; absent is null): 53 bits (cyrb53) in base 36. */
export function valueHash(value: unknown): string {
  const text = JSON.stringify(value ?? null);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

const defaultHashes = new Map(Object.entries(FIELD_DEFAULTS).map(([field, value]) => [field, valueHash(value)]));

/** The hash a location's entry holds for `field`: its own, else its default's. */
export function appliedHash(entry: Readonly<Record<string, string>>, field: string): string | undefined {
  return entry[field] ?? defaultHashes.get(field);
}

/** A location's entry after a sync applied `fields` of it (all of them when absent): defaults left out. */
export function appliedEntry(location: Readonly<Record<string, unknown>>, previous: Readonly<Record<string, string>> | undefined, fields?: readonly string[]): Record<string, string> {
  const entry: Record<string, string> = fields && previous ? { ...previous } : {};
  for (const field of fields ?? SYNC_FIELDS) {
    const hash = valueHash(location[field]);
    if (hash === defaultHashes.get(field)) delete entry[field];
    else entry[field] = hash;
  }
  return entry;
}

/** Whether `field` of the location keyed `key` was edited in Mapfold since a sync applied it. */
export function isOverridden(state: { applied?: DataSourceState['applied'] | undefined }, key: string, field: string, current: unknown): boolean {
  const entry = state.applied?.[key];
  if (!entry) return false;
  const hash = appliedHash(entry, field);
  return hash !== undefined && hash !== valueHash(current);
}

/**
 * The location id a data source's key gives: the key itself when it is a usable id (1 to 64
 * letters, digits, - or _), else one made from it, the same at every sync ("Store #12" →
 * "Store-12-" and a hash of the key), so its location is changed, not removed and added again.
 */
export function syncKeyId(key: string): string {
  if (/^[A-Za-z0-9_-]{1,64}$/.test(key)) return key;
  const base = key
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return `${base || 'key'}-${valueHash(key)}`;
}

/**
 * The name a sync is recorded under: the source's, else "Google Sheet" for a published (or
 * exported) Google Sheet, whose address ends in "pub" or "export", else the address's file (or host).
 */
export function dataSourceName(source: DataSource): string {
  if (source.name) return source.name;
  try {
    const url = new URL(source.url);
    if (/(^|\.)docs\.google\.com$/i.test(url.hostname) && url.pathname.startsWith('/spreadsheets/')) return 'Google Sheet';
    const file = decodeURIComponent(url.pathname.split('/').filter(Boolean).pop() ?? '');
    return (file || url.host).slice(0, 100);
  } catch {
    return source.url.slice(0, 100);
  }
}

/** "Sync from Stores sheet: 3 added, 2 changed, 1 removed" (history and timeline). */
export function syncSummary(name: string, counts: { added: number; changed: number; removed: number }): string {
  return `Sync from ${name}: ${counts.added} added, ${counts.changed} changed, ${counts.removed} removed`;
}

export const dataSourceFunctionPayloads = {
  /** The owner or an editor sets the map's data source (null takes it off). */
  setMapDataSource: z.object({
    mapId: MapId,
    url: DataSource.shape.url,
    keyColumn: DataSource.shape.keyColumn,
    schedule: DataSource.shape.schedule,
    mapping: ColumnMapping.optional(),
    name: DataSource.shape.name,
  }),
  /** Fetches the source now and applies it (`preview: true`: answers what it would do, records nothing). */
  syncMapNow: z.object({ mapId: MapId, preview: z.boolean({ error: 'Preview must be true or false.' }).optional() }),
  /** The owner's (or an editor's) choice for overridden fields: keep Mapfold's value, or use the source's now. */
  resolveSyncOverride: z.object({
    mapId: MapId,
    overrides: z
      .array(
        z.object({
          key: z.string({ error: 'Name the location (its key).' }).min(1, 'Name the location (its key).').max(64, 'A key is at most 64 characters.'),
          field: z.enum(SYNC_FIELDS, { error: `The field must be one of: ${SYNC_FIELDS.join(', ')}.` }),
          choice: z.enum(OVERRIDE_CHOICES, { error: 'The choice must be keep or source.' }),
        }),
        { error: 'Give the overridden fields to resolve.' },
      )
      .min(1, 'Give at least one overridden field.')
      .max(MAX_LISTED_OVERRIDES, `At most ${MAX_LISTED_OVERRIDES.toLocaleString('en')} fields at once.`),
  }),
} as const;

/** A sync's answer: the import's, with what it did by key (`overridden`: fields edited in Mapfold the sync left alone). */
export const SyncAnswer = ImportPreview.extend({
  sync: z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int(), overridden: z.number().int(), summary: z.string() }),
});
export type SyncAnswer = z.infer<typeof SyncAnswer>;

/** An overridden field as the editor lists it. */
export const OverriddenField = z.object({
  key: z.string(),
  /** The location's title in the map. */
  title: z.string(),
  field: z.enum(SYNC_FIELDS),
  mapfold: z.unknown(),
  source: z.unknown(),
  /** `keep`: the owner chose Mapfold's value; null: not chosen yet (the sync keeps it meanwhile). */
  choice: z.literal('keep').nullable(),
});
export type OverriddenField = z.infer<typeof OverriddenField>;

export const ResolveSyncOverrideAnswer = z.object({
  /** Fields now kept, and taken from the source. */
  kept: z.number().int(),
  used: z.number().int(),
  /** The revision of the source's values (an undo step), or null: none changed the map. */
  revision: z.string().nullable(),
});
export type ResolveSyncOverrideAnswer = z.infer<typeof ResolveSyncOverrideAnswer>;

export interface DataSourceFunctionResults {
  setMapDataSource: null;
  syncMapNow: SyncAnswer;
  resolveSyncOverride: ResolveSyncOverrideAnswer;
}

export const dataSourceFunctionResults = {
  setMapDataSource: z.null(),
  syncMapNow: SyncAnswer,
  resolveSyncOverride: ResolveSyncOverrideAnswer,
} satisfies { [N in keyof DataSourceFunctionResults]: z.ZodType<DataSourceFunctionResults[N]> };
