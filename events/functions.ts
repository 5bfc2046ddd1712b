/**
 * The callable functions (spec §7): `POST /api/fn/{name}` with `{data}`, answering `{result}`.
 * These payload schemas are the single source of truth for the server's validation and the
 * client's types.
 */
import { z } from 'zod';
import { apiTokenFunctionPayloads, type ApiTokenFunctionResults } from './api-tokens.js';
import { webhookFunctionPayloads, type WebhookFunctionResults } from './webhooks.js';
import { billingFunctionPayloads, type BillingFunctionResults } from './billing-api.js';
import { commentFunctionPayloads, type CommentFunctionResults } from './comments-api.js';
import { dataSourceFunctionPayloads, type DataSourceFunctionResults } from './map-data-source.js';
import { MapDocumentInput } from './map-document.js';
import { DocumentEdit } from './map-edits.js';
import { HistoryName } from './map.js';
import { MapTitle } from './map-title.js';
import { publishingFunctionPayloads, type PublishingFunctionResults } from './publishing-api.js';
import { sharingFunctionPayloads, type SharingFunctionResults } from './sharing-api.js';

const HistoryId = z.string({ error: 'Version id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Version id is not valid.');
const MapId = z.string({ error: 'Map id must be text.' }).regex(/^[A-Za-z0-9_-]{1,64}$/, 'Map id is not valid.');
/** A map stream's revision, as map data records and editMap's answers carry it (decimal text). */
const Revision = z.string({ error: 'Revision must be a whole number, as text.' }).regex(/^\d{1,19}$/, 'Revision must be a whole number, as text.');

/**
 * A whole document replaces the map's, so it must say which revision it was loaded at: a copy
 * older than the map is refused (aborted), never saved over changes its sender did not see.
 */
function revisionWithMapData(update: { revision?: string | undefined; mapData?: unknown }, context: z.RefinementCtx): void {
  if (update.mapData !== undefined && update.revision === undefined) {
    context.addIssue({ code: 'custom', path: ['revision'], message: 'Give the revision the map data was loaded at, to save it whole.' });
  }
}

export const functionPayloads = {
  createMap: z.object({ title: MapTitle, mapData: MapDocumentInput.optional() }),
  /**
   * The title, the whole document, or both. `revision` (the one the document was loaded at)
   * is required with `mapData`; when given it must be the map's current one. A title alone is
   * one field: the last save wins.
   */
  saveMap: z.object({ id: MapId, title: MapTitle.optional(), mapData: MapDocumentInput.optional(), revision: Revision.optional() }).superRefine(revisionWithMapData),
  deleteMap: z.object({ id: MapId }),
  /** Fine-grained edits of a map's document, applied in order, all or none. */
  editMap: z.object({ id: MapId, edits: z.array(DocumentEdit).min(1, 'must hold at least one edit').max(500, 'at most 500 edits at once') }),
  /** "Save version": a history entry at the map's current revision, named or not. */
  saveMapHistory: z.object({ mapId: MapId, name: HistoryName.optional() }),
  deleteMapHistory: z.object({ mapId: MapId, historyMapId: HistoryId }),
  setMapHistoryName: z.object({ mapId: MapId, historyMapId: HistoryId, name: HistoryName }),
  restoreMapHistory: z.object({ mapId: MapId, historyMapId: HistoryId }),
  /** Admins only (spec §6): a map and its data updated in one batch; `revision` as for saveMap. */
  adminUpdateMap: z
    .object({
      id: MapId,
      title: MapTitle.optional(),
      mapData: MapDocumentInput.optional(),
      revision: Revision.optional(),
      state: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(9)], { error: 'State must be 0, 1, 2, 3 or 9.' }).optional(),
      subscribed: z.boolean({ error: 'Subscribed must be true or false.' }).optional(),
    })
    .refine((update) => update.title !== undefined || update.mapData !== undefined || update.state !== undefined || update.subscribed !== undefined, {
      message: 'Give at least one of title, mapData, state or subscribed.',
    })
    .superRefine(revisionWithMapData),
  ...billingFunctionPayloads,
  ...commentFunctionPayloads,
  ...sharingFunctionPayloads,
  ...publishingFunctionPayloads,
  ...apiTokenFunctionPayloads,
  ...dataSourceFunctionPayloads,
  ...webhookFunctionPayloads,
} as const;

export type FunctionName = keyof typeof functionPayloads;
export type FunctionPayload<N extends FunctionName> = z.input<(typeof functionPayloads)[N]>;

export interface FunctionResults extends BillingFunctionResults, CommentFunctionResults, SharingFunctionResults, PublishingFunctionResults, ApiTokenFunctionResults, DataSourceFunctionResults, WebhookFunctionResults {
  /** The new map's id. */
  createMap: string;
  saveMap: null;
  deleteMap: null;
  /** The map stream's revision after the edits (decimal string), as map data records carry it. */
  editMap: { revision: string };
  /** The new history entry's id. */
  saveMapHistory: { historyId: string };
  deleteMapHistory: null;
  setMapHistoryName: null;
  restoreMapHistory: null;
  adminUpdateMap: null;
}

/** A command's answer: its result and the global position of its last event ("c:p"), if any. */
export interface FunctionAnswer<N extends FunctionName> {
  result: FunctionResults[N];
  position: string | null;
}
