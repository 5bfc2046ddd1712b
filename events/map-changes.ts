/**
 * What changed between two documents of a map (issue 27, "Publish changes"): the locations,
 * floors, groups and paths added, changed or removed between the published revision and the
 * current one, for the review before publishing. Pure, by id: a record whose content differs
 * is changed; the order of the lists is not a change. A changed record says what changed in it
 * ({@link ChangeDetail}, in words by {@link detailWords}), so the review reads "Renamed “Info” →
 * “Information desk”", "moved to floor “Level 2”" rather than "Changed".
 */
import type { Group, Layer, Location, MapDocument } from './map-document.js';
import { canonicalJson } from './canonical-json.js';

export type ChangeKind = 'location' | 'floor' | 'group' | 'path';
export type ChangeType = 'added' | 'changed' | 'removed';

export interface DocumentChange {
  kind: ChangeKind;
  change: ChangeType;
  id: string;
  /** A name people know it by (the location's title, the floor's or group's name), else the id. */
  name: string;
  /** For a changed location, floor or group: what changed in it, in the order people care about. */
  details?: ChangeDetail[];
}

/**
 * One thing that changed in a record. Names (floors', groups', regions') are the current
 * document's where they exist, so the words match what the editor shows.
 */
export type ChangeDetail =
  | { field: 'renamed'; from: string; to: string }
  | { field: 'hidden'; hidden: boolean }
  | { field: 'moved' }
  | { field: 'floor'; floor: string }
  | { field: 'placed'; placed: boolean }
  | { field: 'region'; region: string | null }
  | { field: 'groups'; added: string[]; removed: string[] }
  | { field: 'drawing'; change: 'added' | 'replaced' | 'removed' }
  | { field: 'legend'; shown: boolean }
  | { field: 'recoloured' }
  | {
      /** A field said only by name: it changed, its value is in the editor. */
      field: 'other';
      name: OtherField;
    };

/** Fields whose change is said in a word or two. */
export type OtherField =
  | 'about'
  | 'description'
  | 'picture'
  | 'thumbnail'
  | 'link'
  | 'phone'
  | 'hours'
  | 'zoom'
  | 'marker'
  | 'label'
  | 'entrances'
  | 'geo'
  | 'other';

const OTHER_WORDS: Record<OtherField, string> = {
  about: 'summary changed',
  description: 'description changed',
  picture: 'picture changed',
  thumbnail: 'thumbnail changed',
  link: 'link changed',
  phone: 'phone number changed',
  hours: 'opening hours changed',
  zoom: 'zoom level changed',
  marker: 'marker style changed',
  label: 'label changed',
  entrances: 'entrances changed',
  geo: 'position on the globe changed',
  other: 'other details changed',
};

/** A list of names in words, at most a few of them ("“Food”, “Shops” and 2 more"). */
function namesWords(names: readonly string[]): string {
  const SHOWN = 3;
  const quoted = names.slice(0, SHOWN).map((name) => `“${name}”`);
  if (names.length > SHOWN) return `${quoted.join(', ')} and ${names.length - SHOWN} more`;
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`;
}

/** One detail in the user's words, as the review lists it under its change. */
export function detailWords(detail: ChangeDetail): string {
  switch (detail.field) {
    case 'renamed':
      return `renamed “${detail.from}” → “${detail.to}”`;
    case 'hidden':
      return detail.hidden ? 'now hidden from visitors' : 'shown to visitors again';
    case 'moved':
      return 'moved';
    case 'floor':
      return `moved to floor “${detail.floor}”`;
    case 'placed':
      return detail.placed ? 'placed on the map' : 'taken off the map';
    case 'region':
      return detail.region === null ? 'unlinked from its region' : `linked to region “${detail.region}”`;
    case 'groups': {
      const parts = [];
      if (detail.added.length > 0) parts.push(`added to ${namesWords(detail.added)}`);
      if (detail.removed.length > 0) parts.push(`taken out of ${namesWords(detail.removed)}`);
      return parts.length > 0 ? parts.join(', ') : 'groups changed';
    }
    case 'drawing':
      return detail.change === 'added' ? 'drawing added' : detail.change === 'removed' ? 'drawing removed' : 'drawing replaced';
    case 'legend':
      return detail.shown ? 'shown in the legend' : 'left out of the legend';
    case 'recoloured':
      return 'recoloured';
    case 'other':
      return OTHER_WORDS[detail.name];
  }
}

const same = (a: unknown, b: unknown) => a === b || canonicalJson(a) === canonicalJson(b);

/** Names for ids in the current document (else the published one's, for what it removed), else the id. */
type Names = (id: string) => string;
function namer<T extends { id: string; name: string }>(before: readonly T[], after: readonly T[]): Names {
  const names = new Map<string, string>();
  for (const item of before) names.set(item.id, item.name);
  for (const item of after) names.set(item.id, item.name);
  return (id) => names.get(id) ?? id;
}

/** Location fields said by name only, in the order the location form shows them. */
const LOCATION_OTHER: ReadonlyArray<[keyof Location, OtherField]> = [
  ['about', 'about'],
  ['description', 'description'],
  ['image', 'picture'],
  ['thumbnail', 'thumbnail'],
  ['link', 'link'],
  ['phone', 'phone'],
  ['hours', 'hours'],
  ['marker', 'marker'],
  ['label', 'label'],
  ['zoom', 'zoom'],
  ['entrances', 'entrances'],
];
/** Fields the details above say; any other that differs is "other details changed". */
const LOCATION_SAID = new Set<string>(['id', 'title', 'hidden', 'layer', 'position', 'element', 'groups', 'color', ...LOCATION_OTHER.map(([key]) => key)]);

function locationDetails(old: Location, now: Location, floorName: Names, groupName: Names): ChangeDetail[] {
  const details: ChangeDetail[] = [];
  if (old.title !== now.title) details.push({ field: 'renamed', from: old.title, to: now.title });
  if (old.hidden !== now.hidden) details.push({ field: 'hidden', hidden: now.hidden });
  if (old.layer !== now.layer) details.push({ field: 'floor', floor: floorName(now.layer) });
  if ((old.position === null) !== (now.position === null)) details.push({ field: 'placed', placed: now.position !== null });
  else if (old.layer === now.layer && !same(old.position, now.position)) details.push({ field: 'moved' });
  if (old.element !== now.element) details.push({ field: 'region', region: now.element });
  if (!same(old.groups, now.groups)) {
    const added = now.groups.filter((id) => !old.groups.includes(id)).map(groupName);
    const removed = old.groups.filter((id) => !now.groups.includes(id)).map(groupName);
    details.push({ field: 'groups', added, removed });
  }
  if (old.color !== now.color) details.push({ field: 'recoloured' });
  for (const [key, name] of LOCATION_OTHER) if (!same(old[key], now[key])) details.push({ field: 'other', name });
  const keys = new Set([...Object.keys(old), ...Object.keys(now)].filter((key) => !LOCATION_SAID.has(key)));
  if ([...keys].some((key) => !same((old as Record<string, unknown>)[key], (now as Record<string, unknown>)[key]))) details.push({ field: 'other', name: 'other' });
  return details;
}

function floorDetails(old: Layer, now: Layer): ChangeDetail[] {
  const details: ChangeDetail[] = [];
  if (old.name !== now.name) details.push({ field: 'renamed', from: old.name, to: now.name });
  if (!same(old.file, now.file)) details.push({ field: 'drawing', change: old.file === null ? 'added' : now.file === null ? 'removed' : 'replaced' });
  if (!same(old.geo, now.geo)) details.push({ field: 'other', name: 'geo' });
  return details;
}

function groupDetails(old: Group, now: Group): ChangeDetail[] {
  const details: ChangeDetail[] = [];
  if (old.name !== now.name) details.push({ field: 'renamed', from: old.name, to: now.name });
  if (old.color !== now.color) details.push({ field: 'recoloured' });
  if (old.legend !== now.legend) details.push({ field: 'legend', shown: now.legend });
  return details;
}

export interface DocumentChanges {
  changes: DocumentChange[];
  /** Path points, links and connectors, counted (a network holds thousands; named one by one they say nothing). */
  paths: Record<ChangeType, number>;
  /** The settings (theme, features, view) differ. */
  settingsChanged: boolean;
  /** How many changes in all: each listed change, each path record, the settings. */
  total: number;
}

function diffById<T extends { id: string }>(before: readonly T[], after: readonly T[], visit: (change: ChangeType, item: T, old?: T) => void): void {
  const then = new Map(before.map((item) => [item.id, item]));
  const now = new Map(after.map((item) => [item.id, item]));
  for (const item of after) {
    const old = then.get(item.id);
    if (!old) visit('added', item);
    else if (old !== item && canonicalJson(old) !== canonicalJson(item)) visit('changed', item, old);
  }
  for (const item of before) if (!now.has(item.id)) visit('removed', item);
}

export function diffDocuments(before: MapDocument, after: MapDocument): DocumentChanges {
  const changes: DocumentChange[] = [];
  const floorName = namer(before.layers, after.layers);
  const groupName = namer(before.groups, after.groups);
  // A changed record carries its details; added and removed ones need none. A difference no
  // detail names (a field added to the model later) still says something.
  const withDetails = (change: DocumentChange, details: ChangeDetail[] | undefined) =>
    changes.push(details ? { ...change, details: details.length > 0 ? details : [{ field: 'other', name: 'other' }] } : change);
  diffById(before.layers, after.layers, (change, layer, old) => withDetails({ kind: 'floor', change, id: layer.id, name: layer.name }, old && floorDetails(old, layer)));
  diffById(before.groups, after.groups, (change, group, old) => withDetails({ kind: 'group', change, id: group.id, name: group.name }, old && groupDetails(old, group)));
  diffById(before.locations, after.locations, (change, location, old) =>
    withDetails({ kind: 'location', change, id: location.id, name: location.title || location.id }, old && locationDetails(old, location, floorName, groupName)),
  );
  const paths: Record<ChangeType, number> = { added: 0, changed: 0, removed: 0 };
  const countPath = (change: ChangeType) => {
    paths[change]++;
  };
  if (before.paths !== after.paths) {
    diffById(before.paths.nodes, after.paths.nodes, countPath);
    diffById(before.paths.edges, after.paths.edges, countPath);
    diffById(before.paths.connectors, after.paths.connectors, countPath);
  }
  for (const change of ['added', 'changed', 'removed'] as const) {
    if (paths[change] > 0) changes.push({ kind: 'path', change, id: `paths-${change}`, name: `${paths[change]} path ${paths[change] === 1 ? 'record' : 'records'}` });
  }
  const settingsChanged = before.settings !== after.settings && canonicalJson(before.settings) !== canonicalJson(after.settings);
  const listed = changes.filter((change) => change.kind !== 'path').length;
  return { changes, paths, settingsChanged, total: listed + paths.added + paths.changed + paths.removed + (settingsChanged ? 1 : 0) };
}
