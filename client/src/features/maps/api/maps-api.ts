/**
 * The maps feature's calls: the callable functions that change maps (spec §7) and the map
 * data query. The live list itself comes over the websocket (see use-maps-list).
 */
import { z } from 'zod';
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

export function getMapData(id: string, api: ApiClient = defaultApi, options?: RequestOptions) {
  return api.get(`/api/maps/${encodeURIComponent(id)}/data`, MapDataRecord, options);
}
