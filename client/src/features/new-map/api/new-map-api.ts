/**
 * The new-map page's calls: built-in maps (list, instantiate) and createMap with a document.
 * Uploads (the limits, the file itself) are shared with the editor: lib/upload/.
 */
import { z } from 'zod';
import { MapDocument, type MapDocument as MapDocumentType } from '../../../../../events/map-document';
import { api as defaultApi, type ApiClient, type RequestOptions } from '../../../lib/api';

export const TemplateSummary = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  source: z.string(),
  regionCount: z.number(),
  width: z.number(),
  height: z.number(),
  previewUrl: z.string(),
});
export type TemplateSummary = z.infer<typeof TemplateSummary>;

export function listTemplates(api: ApiClient = defaultApi, options?: RequestOptions) {
  return api.get('/api/templates', z.array(TemplateSummary), options);
}

/** A built-in map as a complete document whose layer holds the map's stored SVG. */
export async function instantiateTemplate(id: string, api: ApiClient = defaultApi, options?: RequestOptions): Promise<MapDocumentType> {
  const { result } = await api.post(`/api/templates/${encodeURIComponent(id)}/instantiate`, {}, MapDocument, options);
  return result;
}

/** Creates a map with a title and, when given, a starting document; answers the new map's id. */
export function createMapWith(title: string, mapData: MapDocumentType | null, api: ApiClient = defaultApi, options?: RequestOptions) {
  return api.callFunction('createMap', mapData ? { title, mapData } : { title }, options);
}
