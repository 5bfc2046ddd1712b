/**
 * What changed between two documents of a map (issue 27, "Publish changes"): the locations,
 * floors, groups and paths added, changed or removed between the published revision and the
 * current one, for the review before publishing. Pure, by id: a record whose content differs
 * is changed; the order of the lists is not a change.
 */
import type { MapDocument } from './map-document.js';
import { canonicalJson } from './canonical-json.js';

export type ChangeKind = 'location' | 'floor' | 'group' | 'path';
export type ChangeType = 'added' | 'changed' | 'removed';

export interface DocumentChange {
  kind: ChangeKind;
  change: ChangeType;
  id: string;
  /** A name people know it by (the location's title, the floor's or group's name), else the id. */
  name: string;
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

function diffById<T extends { id: string }>(before: readonly T[], after: readonly T[], visit: (change: ChangeType, item: T) => void): void {
  const then = new Map(before.map((item) => [item.id, item]));
  const now = new Map(after.map((item) => [item.id, item]));
  for (const item of after) {
    const old = then.get(item.id);
    if (!old) visit('added', item);
    else if (old !== item && canonicalJson(old) !== canonicalJson(item)) visit('changed', item);
  }
  for (const item of before) if (!now.has(item.id)) visit('removed', item);
}

export function diffDocuments(before: MapDocument, after: MapDocument): DocumentChanges {
  const changes: DocumentChange[] = [];
  diffById(before.layers, after.layers, (change, layer) => changes.push({ kind: 'floor', change, id: layer.id, name: layer.name }));
  diffById(before.groups, after.groups, (change, group) => changes.push({ kind: 'group', change, id: group.id, name: group.name }));
  diffById(before.locations, after.locations, (change, location) => changes.push({ kind: 'location', change, id: location.id, name: location.title || location.id }));
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
