/**
 * Locations as CSV: export a map's locations, and import rows into edits with a preview.
 * Pure (papaparse runs in the browser and in Node): the editor previews an import before it
 * sends the resulting edits, and every rejected row says why.
 */
import Papa from 'papaparse';
import { Location, MARKER_TYPES, type MapDocument } from './map-document.js';
import type { MapEdit } from './map-edits.js';

export const CSV_COLUMNS = [
  'id', 'title', 'about', 'layer', 'x', 'y', 'element', 'marker', 'color', 'label', 'groups', 'link', 'phone', 'hours', 'image', 'thumbnail', 'hidden',
] as const;

/** Spreadsheets run cells that start like a formula: quote them (OWASP "CSV injection"). */
function cell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** The map's locations as CSV, one row each, groups as a `;`-separated list of group names. */
export function exportLocationsCsv(document: MapDocument): string {
  const groupName = new Map(document.groups.map((g) => [g.id, g.name]));
  const layerName = new Map(document.layers.map((l) => [l.id, l.name]));
  const rows = document.locations.map((l) => ({
    id: l.id,
    title: l.title,
    about: l.about,
    layer: layerName.get(l.layer) ?? l.layer,
    x: l.position ? String(l.position.x) : '',
    y: l.position ? String(l.position.y) : '',
    element: l.element ?? '',
    marker: l.marker,
    color: l.color ?? '',
    label: l.label,
    groups: l.groups.map((g) => groupName.get(g) ?? g).join('; '),
    link: l.link ?? '',
    phone: l.phone,
    hours: l.hours,
    image: l.image ?? '',
    thumbnail: l.thumbnail ?? '',
    hidden: l.hidden ? 'yes' : 'no',
  }));
  return Papa.unparse(
    rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, cell(value)]))),
    { columns: [...CSV_COLUMNS], newline: '\r\n' },
  );
}

export interface RejectedRow {
  /** Line number in the file (the header is line 1). */
  line: number;
  reason: string;
}

export interface CsvImport {
  /** Rows that become new locations. */
  added: Location[];
  /** Rows whose id matches an existing location: they replace its fields. */
  updated: Location[];
  rejected: RejectedRow[];
  /** The edits to send (`editMap`) to apply the accepted rows. */
  edits: MapEdit[];
}

const MAX_ROWS = 5_000;

function slug(text: string): string {
  const base = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return base || 'location';
}

const yes = (value: string) => /^(yes|true|1|y)$/i.test(value.trim());
const uncell = (value: string) => (/^'[=+\-@\t\r]/.test(value) ? value.slice(1) : value);

/**
 * Reads a CSV of locations against a document. Columns are matched by header name (case and
 * spaces ignored; only `title` is required); groups and layers may be named by id or by name.
 */
export function importLocationsCsv(document: MapDocument, text: string): CsvImport {
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.trim().toLowerCase().replace(/\s+/g, ''),
  });
  const result: CsvImport = { added: [], updated: [], rejected: [], edits: [] };
  if (!parsed.meta.fields?.includes('title')) {
    result.rejected.push({ line: 1, reason: 'The file needs a "title" column.' });
    return result;
  }
  const groupByKey = new Map<string, string>();
  for (const g of document.groups) {
    groupByKey.set(g.id.toLowerCase(), g.id);
    groupByKey.set(g.name.toLowerCase(), g.id);
  }
  const layerByKey = new Map<string, string>();
  for (const l of document.layers) {
    layerByKey.set(l.id.toLowerCase(), l.id);
    layerByKey.set(l.name.toLowerCase(), l.id);
  }
  const defaultLayer = document.settings.defaultLayer ?? document.layers[0]?.id ?? '';
  const existing = new Set(document.locations.map((l) => l.id));
  const taken = new Set(existing);

  parsed.data.slice(0, MAX_ROWS).forEach((raw, index) => {
    const line = index + 2;
    const row = Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, uncell(String(value ?? '').trim())])) as Record<string, string>;
    const reject = (reason: string) => result.rejected.push({ line, reason });

    const layerKey = row.layer?.toLowerCase() ?? '';
    const layer = layerKey ? layerByKey.get(layerKey) : defaultLayer;
    if (!layer) return reject(`layer: there is no layer "${row.layer}"`);
    const groupNames = (row.groups ?? '').split(/[;,]/).map((g) => g.trim()).filter(Boolean);
    const unknownGroup = groupNames.find((g) => !groupByKey.has(g.toLowerCase()));
    if (unknownGroup) return reject(`groups: there is no group "${unknownGroup}"`);
    const hasX = Boolean(row.x);
    const hasY = Boolean(row.y);
    if (hasX !== hasY) return reject('x, y: give both coordinates or neither');
    const x = Number(row.x);
    const y = Number(row.y);
    if (hasX && (!Number.isFinite(x) || !Number.isFinite(y))) return reject('x, y: must be numbers');

    let id = row.id || '';
    if (!id) {
      const base = slug(row.title ?? '');
      id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
    }
    const candidate = Location.safeParse({
      id,
      title: row.title,
      about: row.about ?? '',
      layer,
      position: hasX ? { x, y } : null,
      element: row.element || null,
      marker: row.marker ? row.marker.toLowerCase() : 'pin',
      color: row.color || null,
      label: row.label ?? '',
      groups: groupNames.map((g) => groupByKey.get(g.toLowerCase())!),
      link: row.link || null,
      phone: row.phone ?? '',
      hours: row.hours ?? '',
      image: row.image || null,
      thumbnail: row.thumbnail || null,
      hidden: yes(row.hidden ?? ''),
    });
    if (!candidate.success) {
      const issue = candidate.error.issues[0]!;
      const field = String(issue.path[0] ?? 'row');
      const reason = field === 'marker' ? `marker: must be one of ${MARKER_TYPES.join(', ')}` : `${field === 'position' ? 'x, y' : field}: ${issue.message}`;
      return reject(reason);
    }
    const location = candidate.data;
    if (existing.has(location.id)) {
      if (result.updated.some((l) => l.id === location.id)) return reject(`id: "${location.id}" appears twice in the file`);
      result.updated.push(location);
      const { id: locationId, ...changes } = location;
      result.edits.push({ type: 'LocationUpdated', id: locationId, changes });
    } else {
      if (taken.has(location.id)) return reject(`id: "${location.id}" appears twice in the file`);
      taken.add(location.id);
      result.added.push(location);
      result.edits.push({ type: 'LocationAdded', location });
    }
  });
  if (parsed.data.length > MAX_ROWS) {
    result.rejected.push({ line: MAX_ROWS + 2, reason: `Only the first ${MAX_ROWS} rows are read; split the file.` });
  }
  return result;
}
