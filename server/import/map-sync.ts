/**
 * Live data from a sheet or URL (issue 30 item 4; events/map-data-source.ts): a sync fetches
 * the map's data source through the safe fetcher (server/files/fetch-remote-file.ts: public
 * addresses only, loopback ones only with ALLOW_LOOPBACK_TARGETS=1) and runs it through the
 * import pipeline (import-routes.ts runImport) keyed by the source's key column: rows whose
 * key is a location's id change it, new keys add locations, keys gone remove the locations
 * earlier syncs brought, all recorded as one import ("Sync from …"), undone as one step.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireMapAccess } from '../access/map-access-facts.js';
import { ErrorBody, WirePosition } from '../../events/function-results.js';
import { MapIdParams } from '../../events/http-api.js';
import { requireVerified } from '../http/access-hooks.js';
import { typed } from '../http/zod-routes.js';
import { activeMap, type MapHistory } from '../history/map-history.js';
import type { Queryable } from '../../ports/database.js';
import { DomainError } from '../../events/errors.js';
import { DataSource, dataSourceName, LISTED_SYNC_FIELDS, OverriddenField, SyncAnswer, syncSummary, type DataSourceState, type SyncOverride } from '../../events/map-data-source.js';
import { sanitizeMapEdits } from '../content/rich-text-sanitizer.js';
import type { MapDocument } from '../../events/map-document.js';
import { formatPosition } from '../../events/position.js';
import { runMapCommand } from '../commands/map-commands.js';
import type { Principal } from '../../events/principal.js';
import type { CommandMetadata } from '../commands/command-handler.js';
import { fetchRemoteFile, type Resolver } from '../files/fetch-remote-file.js';
import { isPublicAddress } from '../files/public-address.js';
import { runImport, type ImportArgs, type ImportDeps } from './import-routes.js';

export interface MapSyncOptions {
  /** ALLOW_LOOPBACK_TARGETS=1: sources on this machine's loopback addresses too (tests). */
  allowLoopback: boolean;
  resolve?: Resolver;
  timeoutMs?: number;
}

const isLoopback = (address: string) => address === '::1' || /^127\./.test(address) || address === '::ffff:127.0.0.1';

export class MapSync {
  private deps: ImportDeps | null = null;

  constructor(private readonly options: MapSyncOptions) {}

  /** The import pipeline's services, once the import routes have made them. */
  attach(deps: ImportDeps): void {
    this.deps = deps;
  }

  /**
   * Fetches the map's source and imports it as a sync (`preview`: answers what it would do and
   * records nothing). `principal` must be allowed to edit the map; the scheduler acts as admin.
   */
  async syncNow(mapId: string, principal: Principal, meta: CommandMetadata, newId: () => string, log: ImportArgs['log'], preview = false): Promise<{ result: SyncAnswer; position: string | null }> {
    const deps = this.deps;
    if (!deps) throw new DomainError('unavailable', 'Syncing is not available on this server yet. Try again in a moment.');
    await requireMapAccess(deps.db, principal, mapId, 'edit');
    const map = activeMap((await deps.history.stateAt(mapId)).state);
    const dataSource = map.dataSource;
    if (!dataSource) throw new DomainError('invalid-argument', 'This map has no data source: set one (its address and key column) first.');
    const { source } = dataSource;
    const bytes = await fetchRemoteFile(source.url, {
      maxBytes: deps.importLimit,
      isAllowedAddress: this.options.allowLoopback ? (address) => isPublicAddress(address) || isLoopback(address) : isPublicAddress,
      ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
      ...(this.options.timeoutMs ? { timeoutMs: this.options.timeoutMs } : {}),
      headers: { accept: 'text/csv, application/geo+json, application/json, application/vnd.google-earth.kml+xml, */*;q=0.1', 'user-agent': 'Mapfold (syncing a data source)' },
    });
    const name = dataSourceName(source);
    const path = new URL(source.url).pathname;
    const outcome = await runImport(deps, {
      mapId,
      uid: principal.uid,
      meta,
      newId,
      upload: { bytes: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), filename: decodeURIComponent(path.split('/').pop() ?? ''), contentType: '', attachments: new Map() },
      options: { ...(source.mapping ? { columns: source.mapping } : {}), key: source.keyColumn },
      apply: !preview,
      log,
      sync: { name, keys: dataSource.keys, ...(dataSource.applied ? { applied: dataSource.applied } : {}), ...(dataSource.kept ? { kept: dataSource.kept } : {}) },
    });
    const counts = outcome.sync ?? { added: 0, changed: 0, removed: 0, overridden: 0 };
    let position = outcome.position;
    if (!preview && outcome.overrides) {
      // What it left alone, with the source's values, for the editor's list (recorded when the list changes).
      const commands = { store: deps.store, db: deps.db, ids: deps.ids, history: deps.history };
      const { list, more } = safeOverrides(outcome.overrides.list);
      const recorded = await runMapCommand(commands, { type: 'RecordSyncOverrides', data: { mapId, overrides: list, more: outcome.overrides.more + more } }, { ...meta, commandId: newId() });
      if (recorded.position) position = formatPosition(recorded.position);
    }
    return { result: { ...outcome.result, sync: { ...counts, summary: syncSummary(name, counts) } }, position };
  }
}

/** The source's values as they would be recorded (rich text sanitised, as the sync's import is): one the sanitiser refuses is left off the list. */
function safeOverrides(overrides: readonly SyncOverride[]): { list: SyncOverride[]; more: number } {
  let more = 0;
  const list = overrides.flatMap((override) => {
    if (override.source.description === undefined) return [override];
    try {
      const [edit] = sanitizeMapEdits([{ type: 'LocationUpdated', id: override.id, changes: override.source }]);
      return edit?.type === 'LocationUpdated' ? [{ id: override.id, source: edit.changes }] : [];
    } catch {
      more += Object.keys(override.source).filter((field) => field !== 'precision').length;
      return [];
    }
  });
  return { list, more };
}

const SyncBody = z.object({ data: z.object({ preview: z.boolean({ error: 'Preview must be true or false.' }).optional() }).optional() }).optional();
const SyncRouteAnswer = z.object({ result: SyncAnswer, position: WirePosition.nullable() });

const DataSourceAnswer = z.object({
  result: z.object({
    /** The map's data source, or null: none. */
    source: DataSource.nullable(),
    /** When the last sync was recorded, or null: never (the first sync is previewed by hand). */
    lastSyncAt: z.string().nullable(),
    /** Why the last sync failed (the map kept its data), until one works again; null: it worked. */
    lastError: z.string().nullable(),
    /** Fields edited in Mapfold the last sync left alone (overridden), with both values; kept ones too. */
    overrides: z.array(OverriddenField),
    /** Overridden fields not listed (too many). */
    moreOverrides: z.number().int(),
  }),
});

/**
 * The overridden fields the editor lists: the last sync's, less those the map has since come
 * to agree on (edited to the source's value by hand) or whose location is gone.
 */
export function overriddenFields(map: { document: MapDocument; dataSource?: DataSourceState | null }): OverriddenField[] {
  const dataSource = map.dataSource;
  if (!dataSource?.overrides?.length) return [];
  const locations = new Map(map.document.locations.map((location) => [location.id, location as unknown as Record<string, unknown>]));
  return dataSource.overrides.flatMap((override) => {
    const location = locations.get(override.id);
    if (!location) return [];
    const source = override.source as Record<string, unknown>;
    return LISTED_SYNC_FIELDS.flatMap((field) => {
      if (!(field in source) || JSON.stringify(location[field] ?? null) === JSON.stringify(source[field] ?? null)) return [];
      const kept = dataSource.kept?.[override.id]?.includes(field) ?? false;
      return [{ key: override.id, title: String(location.title), field, mapfold: location[field] ?? null, source: source[field] ?? null, choice: kept ? ('keep' as const) : null }];
    });
  });
}

/**
 * `GET /api/maps/{id}/data-source`: what the editor's "Data source" section shows; and
 * `POST /api/maps/{id}/sync`: "Sync now" for scripts (an API token with the `import` scope)
 * and editors alike. Both for whoever may edit the map.
 */
export async function syncRoutes(scope: FastifyInstance, mapSync: MapSync, history: MapHistory, db: Queryable): Promise<void> {
  typed(scope).get(
    '/api/maps/:id/data-source',
    { schema: { tags: ['maps'], description: "The map's data source, its last sync and its last failure.", params: MapIdParams, response: { 200: DataSourceAnswer, '4xx': ErrorBody } } },
    async (request) => {
      const principal = requireVerified(request);
      await requireMapAccess(db, principal, request.params.id, 'edit');
      const map = activeMap((await history.stateAt(request.params.id)).state);
      const dataSource = map.dataSource ?? null;
      return {
        result: {
          source: dataSource?.source ?? null,
          lastSyncAt: dataSource?.lastSyncAt ?? null,
          lastError: dataSource?.lastError ?? null,
          overrides: overriddenFields(map),
          moreOverrides: dataSource?.moreOverrides ?? 0,
        },
      };
    },
  );

  typed(scope).post(
    '/api/maps/:id/sync',
    {
      schema: {
        tags: ['maps'],
        description: "Fetches the map's data source now and applies it as one import (added, changed and removed by key); with {\"data\": {\"preview\": true}} answers what it would do and records nothing.",
        params: MapIdParams,
        body: SyncBody,
        response: { 200: SyncRouteAnswer, '4xx': ErrorBody },
      },
    },
    async (request) => {
      const principal = requireVerified(request);
      const meta: CommandMetadata = { principal: request.principal, now: request.server.clock.now(), correlationId: request.correlationId, commandId: request.server.ids.uuid() };
      return mapSync.syncNow(request.params.id, principal, meta, () => request.server.ids.uuid(), request.log, request.body?.data?.preview ?? false);
    },
  );
}
