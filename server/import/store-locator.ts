/**
 * Store-locator JSON: a list of objects (the file itself, or the one list it holds under
 * `stores`, `locations`, `data`…), as store-locator plugins and APIs export them. Each object
 * is flattened (nested objects' keys joined with dots: `address.city`, `coordinates.lat`;
 * lists of plain values joined as a group list) and read like a table's row, through the same
 * column mapping, so `name`/`lat`/`lng` mean what they mean in a CSV.
 */
import { joinGroupNames } from '../../events/group-list.js';
import type { ImportPlan } from '../../events/map-import.js';
import { storeListOf } from './detect-format.js';
import type { ImportInput } from './import-input.js';
import { importRefusal } from './refusal.js';
import { chooseMapping, planTable, withStableKeyIds } from './table-plan.js';

/** Keys deeper than this are left as JSON text: nobody's store has an address ten levels down. */
const MAX_DEPTH = 6;
const MAX_COLUMNS = 500;

/** An object's leaves as `dotted.key → text`. */
export function flattenObject(value: Record<string, unknown>, prefix = '', into: Map<string, string> = new Map(), depth = 0): Map<string, string> {
  for (const [key, item] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (item === null || item === undefined) into.set(name, '');
    else if (Array.isArray(item)) {
      // GeoJSON-style `coordinates: [lng, lat]` stay numbers by position; other lists of plain values are a list.
      if (item.every((v) => typeof v !== 'object' || v === null)) into.set(name, joinGroupNames(item.map((v) => String(v ?? '')).filter(Boolean)));
      else if (depth < MAX_DEPTH && item.every((v) => typeof v === 'object' && v !== null && !Array.isArray(v))) {
        // A list of objects (`categories: [{name: "Food"}]`): their names as a list.
        const names = item.map((v) => (v as Record<string, unknown>).name ?? (v as Record<string, unknown>).title ?? (v as Record<string, unknown>).label).filter((v) => typeof v === 'string') as string[];
        into.set(name, names.length > 0 ? joinGroupNames(names) : JSON.stringify(item));
      } else into.set(name, JSON.stringify(item));
    } else if (typeof item === 'object') {
      if (depth < MAX_DEPTH) flattenObject(item as Record<string, unknown>, name, into, depth + 1);
      else into.set(name, JSON.stringify(item));
    } else into.set(name, String(item));
  }
  return into;
}

export function parseStoreLocator(input: ImportInput): ImportPlan {
  const json = JSON.parse(input.text.replace(/^\uFEFF/, '')) as unknown;
  const list = storeListOf(json);
  if (!list) throw importRefusal('store-locator', 'it holds no list of locations', 'Give a JSON array of objects, one per location, each with a name and either latitude/longitude or x/y.');
  const columns: string[] = [];
  const seen = new Set<string>();
  const flat = list.items.map((item) => {
    const leaves = flattenObject(item);
    for (const key of leaves.keys()) {
      if (!seen.has(key) && columns.length < MAX_COLUMNS) {
        seen.add(key);
        columns.push(key);
      }
    }
    return leaves;
  });
  // `coordinates: [lng, lat]` (GeoJSON's order) as two columns a mapping can name.
  const rows = flat.map((leaves) => columns.map((column) => leaves.get(column) ?? ''));
  const mapping = chooseMapping('store-locator', columns, input, rows);
  const problems = list.path ? [{ row: null, field: null, message: `The locations were read from the list “${list.path}” (${list.items.length} items).` }] : [];
  return withStableKeyIds(planTable('store-locator', { columns, rows }, mapping, problems), input.options);
}
