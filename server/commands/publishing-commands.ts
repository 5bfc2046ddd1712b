/**
 * Drafts, review and scheduled publishing (issue 27; events/map-publishing.ts): the callable
 * functions, from a validated payload and the caller to the map decider, and what the editor
 * reads of a map's publishing (`GET /api/maps/{id}/publication`).
 */
import type { z } from 'zod';
import { can } from '../../events/map-access.js';
import { factsOf, publishingOf, type MapAggregate } from '../../events/map.js';
import type { Principal } from '../../events/principal.js';
import type { MapPublication, publishingFunctionPayloads } from '../../events/publishing-api.js';
import type { CommandMetadata } from './command-handler.js';
import { runMapCommand, type MapCommandDeps } from './map-commands.js';

export async function setMapPublishMode(deps: MapCommandDeps, payload: z.output<typeof publishingFunctionPayloads.setMapPublishMode>, meta: CommandMetadata) {
  const outcome = await runMapCommand(deps, { type: 'SetMapPublishMode', data: { mapId: payload.mapId, mode: payload.mode } }, meta);
  return { result: null, position: outcome.position };
}

export async function publishMapChanges(deps: MapCommandDeps, payload: z.output<typeof publishingFunctionPayloads.publishMapChanges>, meta: CommandMetadata) {
  const outcome = await runMapCommand(
    deps,
    { type: 'PublishMapChanges', data: { mapId: payload.mapId, revision: payload.revision === undefined ? undefined : Number(payload.revision), at: payload.at } },
    meta,
  );
  return { result: null, position: outcome.position };
}

export async function cancelMapPublishSchedule(deps: MapCommandDeps, payload: z.output<typeof publishingFunctionPayloads.cancelMapPublishSchedule>, meta: CommandMetadata) {
  const outcome = await runMapCommand(deps, { type: 'CancelScheduledPublish', data: { mapId: payload.mapId } }, meta);
  return { result: null, position: outcome.position };
}

export const publishingFunctionHandlers = { setMapPublishMode, publishMapChanges, cancelMapPublishSchedule };

/** The newest versions "Roll back" offers (older ones: restore them from History first). */
const VERSIONS_OFFERED = 50;

/** A map's publishing as `principal` sees it in the editor (the map's route let them view it). */
export function publicationOf(map: Extract<MapAggregate, { status: 'active' }>, principal: Principal | null): MapPublication {
  const publishing = publishingOf(map);
  const live = publishing.mode === 'live';
  return {
    mode: publishing.mode,
    revision: String(map.revision),
    lastChangeRevision: String(map.lastChangeRevision),
    publishedRevision: live ? String(map.revision) : publishing.publishedRevision === null ? null : String(publishing.publishedRevision),
    publishedAt: live ? null : publishing.publishedAt,
    publishedBy: live ? null : publishing.publishedBy,
    scheduled: publishing.scheduled ? { revision: String(publishing.scheduled.revision), publishAt: publishing.scheduled.publishAt, by: publishing.scheduled.by } : null,
    canPublish: can(principal, factsOf(map), 'manage'),
    versions: map.history
      .slice(-VERSIONS_OFFERED)
      .reverse()
      .map((item) => ({ id: item.id, revision: String(item.revision), created: item.created, ...(item.name !== undefined ? { name: item.name } : {}) })),
  };
}
