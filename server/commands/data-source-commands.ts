/**
 * Live data from a sheet or URL (issue 30 item 4; events/map-data-source.ts): the callable
 * functions, from a validated payload and the caller to the map decider (`setMapDataSource`)
 * and to the sync (server/import/map-sync.ts, `syncMapNow`).
 */
import type { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import type { dataSourceFunctionPayloads } from '../../events/map-data-source.js';
import { parsePosition } from '../../events/position.js';
import type { MapSync } from '../import/map-sync.js';
import type { CommandMetadata } from './command-handler.js';
import { runMapCommand, type MapCommandDeps } from './map-commands.js';

export interface DataSourceDeps extends MapCommandDeps {
  /** Absent: this server does not sync (a test's app without imports). */
  mapSync?: MapSync;
  /** Where a sync's import says what it did. */
  syncLog?: { info(details: object, message: string): void; warn(details: object, message: string): void; error(details: object, message: string): void };
}

export async function setMapDataSource(deps: DataSourceDeps, payload: z.output<typeof dataSourceFunctionPayloads.setMapDataSource>, meta: CommandMetadata) {
  const { mapId, url, keyColumn, schedule, mapping, name } = payload;
  const source = { url, keyColumn, schedule, ...(mapping ? { mapping } : {}), ...(name ? { name } : {}) };
  const outcome = await runMapCommand(deps, { type: 'SetMapDataSource', data: { mapId, source } }, meta);
  return { result: null, position: outcome.position };
}

const quiet = { info() {}, warn() {}, error() {} };

export async function syncMapNow(deps: DataSourceDeps, payload: z.output<typeof dataSourceFunctionPayloads.syncMapNow>, meta: CommandMetadata) {
  if (!deps.mapSync) throw new DomainError('unavailable', 'Syncing is not available on this server.');
  if (!meta.principal) throw new DomainError('unauthenticated', 'Sign in to sync a map.');
  const outcome = await deps.mapSync.syncNow(payload.mapId, meta.principal, meta, () => deps.ids.uuid(), deps.syncLog ?? quiet, payload.preview ?? false);
  return { result: outcome.result, position: outcome.position ? parsePosition(outcome.position) : null };
}

/**
 * The owner's (or an editor's) choice for overridden fields: keep Mapfold's value (later syncs
 * leave it alone) or use the source's, recorded now as the map's edits (one undo step).
 */
export async function resolveSyncOverride(deps: DataSourceDeps, payload: z.output<typeof dataSourceFunctionPayloads.resolveSyncOverride>, meta: CommandMetadata) {
  const { mapId, overrides } = payload;
  const outcome = await runMapCommand(deps, { type: 'ResolveSyncOverrides', data: { mapId, overrides } }, meta);
  const resolved = outcome.events.find((event) => event.type === 'MapDataSourceOverridesResolved');
  const choices = resolved?.type === 'MapDataSourceOverridesResolved' ? resolved.data.choices : [];
  const changed = outcome.events.some((event) => event.type === 'ImportApplied');
  return {
    result: {
      kept: choices.filter((c) => c.choice === 'keep').length,
      used: choices.filter((c) => c.choice === 'source').length,
      revision: changed && outcome.revision !== null ? String(outcome.revision) : null,
    },
    position: outcome.position,
  };
}

export const dataSourceFunctionHandlers = { setMapDataSource, syncMapNow, resolveSyncOverride };
