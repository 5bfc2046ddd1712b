/**
 * The maps feature's calls: the callable functions that change maps (spec §7) and the map
 * data query. The live list itself comes over the websocket (see use-maps-list).
 */
import { z } from 'zod';
import { MapDocument } from '../../../../../events/map-document';
import { copyTitleOf } from '../../../../../events/map-title';
import { MapDataRecord, MapListItem } from '../../../../../events/read-models';
import { api as defaultApi, type ApiClient, type RequestOptions } from '../../../lib/api';

/** What topic `maps:{uid}` carries. Module-level so hooks get a stable schema. */
export const MapList = z.array(MapListItem);

export function createMap(title: string, api: ApiClient = defaultApi, options?: RequestOptions) {
  return api.callFunction('createMap', { title }, options);
}

export function deleteMap(id: string, api: ApiClient = defaultApi, options?: RequestOptions) {
  return api.callFunction('deleteMap', { id }, options);
}

/**
 * A copy's title: the original's prefixed '[D] ' (spec §9), cut to the title limit without
 * splitting a character that takes two UTF-16 units (an emoji).
 */
export function copyTitle(title: string): string {
  return copyTitleOf(title);
}

/**
 * Copies a map: its current document under {@link copyTitle}, as a new test map of the
 * caller's (which takes a free test slot: the server refuses when none is left). Answers the
 * new map's id and the position the live list shows it at.
 */
export async function copyMap(map: { id: string; title: string }, api: ApiClient = defaultApi, options?: RequestOptions) {
  const { result } = await getMapData(map.id, api, options);
  const document = MapDocument.parse(result.data);
  return api.callFunction('createMap', { title: copyTitle(result.title), mapData: document }, options);
}

export function getMapData(id: string, api: ApiClient = defaultApi, options?: RequestOptions) {
  return api.get(`/api/maps/${encodeURIComponent(id)}/data`, MapDataRecord, options);
}
