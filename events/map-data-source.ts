/**
 * Live data from a sheet or URL (issue 30 item 4): a map's data source, a web address (a
 * published Google Sheet as CSV, any CSV, GeoJSON or KML) with the column that keys its rows
 * to the map's locations, fetched on its schedule or by "Sync now". Recorded on the map's
 * stream (`MapDataSourceSet`); each sync is an import (`ImportApplied` with `source.sync`) that
 * adds, changes and removes locations by key in one step, undone as one.
 */
import { z } from 'zod';
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

export const DATA_SOURCE_EVENT_TYPES: ReadonlySet<string> = new Set(['MapDataSourceSet', 'MapDataSourceSyncStarted', 'MapDataSourceSyncFailed']);
export type DataSourceEvent = MapDataSourceSet | MapDataSourceSyncStarted | MapDataSourceSyncFailed;

export type MapDataSourceCommand =
  | { type: 'SetMapDataSource'; data: { mapId: string; source: DataSource | null } }
  /** The scheduler's claim of a due sync: nothing when it is not due (another process claimed it). */
  | { type: 'StartScheduledSync'; data: { mapId: string } }
  /** A sync's outcome: recorded when the error state changes. */
  | { type: 'RecordSyncOutcome'; data: { mapId: string; error: string | null } };

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
}

/** The name a sync is recorded under: the source's, else the address's file (or host). */
export function dataSourceName(source: DataSource): string {
  if (source.name) return source.name;
  try {
    const url = new URL(source.url);
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
} as const;

/** A sync's answer: the import's, with what it did by key. */
export const SyncAnswer = ImportPreview.extend({
  sync: z.object({ added: z.number().int(), changed: z.number().int(), removed: z.number().int(), summary: z.string() }),
});
export type SyncAnswer = z.infer<typeof SyncAnswer>;

export interface DataSourceFunctionResults {
  setMapDataSource: null;
  syncMapNow: SyncAnswer;
}

export const dataSourceFunctionResults = {
  setMapDataSource: z.null(),
  syncMapNow: SyncAnswer,
} satisfies { [N in keyof DataSourceFunctionResults]: z.ZodType<DataSourceFunctionResults[N]> };
