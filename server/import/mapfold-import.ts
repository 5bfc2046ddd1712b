/**
 * Mapfold's own JSON export (`{title, document}`, or a bare document): the whole map, brought
 * in place of the map's document as one DocumentImported edit (undone like any edit). The
 * planner checks the document as anything given now is checked.
 */
import type { ImportPlan } from '../../events/map-import.js';
import { mapfoldDocumentOf } from './detect-format.js';
import type { ImportInput } from './import-input.js';
import { importRefusal } from './refusal.js';

export function parseMapfold(input: ImportInput): ImportPlan {
  const document = mapfoldDocumentOf(JSON.parse(input.text.replace(/^\uFEFF/, '')));
  if (!document) throw importRefusal('mapfold', 'it holds no map document', 'Export the map again from Mapfold (Export, JSON) and import that file.');
  return { format: 'mapfold', floors: [], groups: [], locations: [], columns: { used: [], ignored: [] }, mapping: null, problems: [], replaces: document };
}
