/**
 * A map's events in words, for the timeline and the audit log: "Ana moved “Cafe” on Floor 2",
 * "Ben restored “Before launch”". Pure: each event is described against the map as it was
 * just before it (names of locations, floors and versions come from there).
 */
import { dataSourceName, syncSummary } from './map-data-source.js';
import type { MapAggregate, MapEvent } from './map.js';
import { editOf, isEditEvent } from './map.js';
import type { MapDocument } from './map-document.js';
import type { MapEdit } from './map-edits.js';
import { describeSharingEvent, emptySharing, isSharingEvent } from './map-sharing.js';

export interface EventDescription {
  summary: string;
  /** The locations the event touched. */
  locationIds: string[];
  historyId?: string;
}

const FIELD_NAMES: Record<string, string> = {
  title: 'title',
  about: 'short text',
  description: 'description',
  image: 'image',
  thumbnail: 'thumbnail',
  link: 'link',
  phone: 'phone',
  hours: 'opening hours',
  layer: 'floor',
  position: 'position',
  element: 'region',
  zoom: 'zoom level',
  marker: 'marker',
  color: 'colour',
  label: 'label',
  groups: 'groups',
  hidden: 'visibility',
  name: 'name',
  legend: 'legend',
};

const quote = (text: string) => `“${text}”`;

/** Map states in words (spec §4). */
const STATE_NAMES: Record<number, string> = { 0: 'test', 1: 'live', 2: 'demo', 3: 'pro', 9: 'admin' };

/** "a, b and c". */
function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function count(n: number, one: string, many: string): string {
  // Grouped digits: "imported 25,000 locations" reads at a glance, 25000 does not.
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

/** "drew 3 path points and 2 links, removed a lift" and the like. */
function describePathsEdit(edit: Extract<MapEdit, { type: 'PathsEdited' }>): string {
  const connectorWord = (n: number) => count(n, 'connector', 'connectors');
  const put = [
    edit.put.nodes.length > 0 ? count(edit.put.nodes.length, 'path point', 'path points') : '',
    edit.put.edges.length > 0 ? count(edit.put.edges.length, 'link', 'links') : '',
    edit.put.connectors.length > 0 ? connectorWord(edit.put.connectors.length) : '',
  ].filter(Boolean);
  const removed = [
    edit.removed.nodes.length > 0 ? count(edit.removed.nodes.length, 'path point', 'path points') : '',
    edit.removed.edges.length > 0 ? count(edit.removed.edges.length, 'link', 'links') : '',
    edit.removed.connectors.length > 0 ? connectorWord(edit.removed.connectors.length) : '',
  ].filter(Boolean);
  const parts = [put.length > 0 ? `drew or changed ${listInWords(put)}` : '', removed.length > 0 ? `removed ${listInWords(removed)}` : ''].filter(Boolean);
  return parts.length > 0 ? `${parts.join(' and ')} of the paths` : 'changed nothing of the paths';
}

function describeEdit(document: MapDocument | null, edit: MapEdit, before: MapAggregate): EventDescription {
  const location = (id: string) => document?.locations.find((l) => l.id === id);
  const locationName = (id: string) => quote(location(id)?.title ?? id);
  const layerName = (id: string) => quote(document?.layers.find((l) => l.id === id)?.name ?? id);
  const groupName = (id: string) => quote(document?.groups.find((g) => g.id === id)?.name ?? id);
  switch (edit.type) {
    case 'LocationAdded':
      return { summary: `added ${quote(edit.location.title)} on ${layerName(edit.location.layer)}`, locationIds: [edit.location.id] };
    case 'LocationUpdated': {
      const fields = Object.keys(edit.changes).filter((key) => (edit.changes as Record<string, unknown>)[key] !== undefined);
      const renamed = edit.changes.title !== undefined && fields.length === 1;
      return {
        summary: renamed
          ? `renamed ${locationName(edit.id)} to ${quote(edit.changes.title!)}`
          : `changed the ${listInWords(fields.map((field) => FIELD_NAMES[field] ?? field))} of ${locationName(edit.id)}`,
        locationIds: [edit.id],
      };
    }
    case 'LocationMoved': {
      const current = location(edit.id);
      const layer = edit.layer ?? current?.layer;
      const toOtherFloor = edit.layer !== undefined && current !== undefined && edit.layer !== current.layer;
      return { summary: `moved ${locationName(edit.id)} ${toOtherFloor ? 'to' : 'on'} ${layer ? layerName(layer) : 'the map'}`, locationIds: [edit.id] };
    }
    case 'LocationRemoved':
      return { summary: `removed ${locationName(edit.id)}`, locationIds: [edit.id] };
    case 'LayerAdded':
      return { summary: `added the floor ${quote(edit.layer.name)}`, locationIds: [] };
    case 'LayerRenamed':
      return { summary: `renamed the floor ${layerName(edit.id)} to ${quote(edit.name)}`, locationIds: [] };
    case 'LayersReordered':
      return { summary: 'reordered the floors', locationIds: [] };
    case 'LayerFileReplaced':
      return { summary: `${edit.file ? 'replaced' : 'removed'} the drawing of ${layerName(edit.id)}`, locationIds: [] };
    case 'LayerRemoved':
      return {
        summary: `removed the floor ${layerName(edit.id)}${edit.removedLocations.length > 0 ? ` and its ${count(edit.removedLocations.length, 'location', 'locations')}` : ''}`,
        locationIds: edit.removedLocations,
      };
    case 'GroupAdded':
      return { summary: `added the group ${quote(edit.group.name)}`, locationIds: [] };
    case 'GroupUpdated': {
      const fields = Object.keys(edit.changes).filter((key) => (edit.changes as Record<string, unknown>)[key] !== undefined);
      return edit.changes.name !== undefined && fields.length === 1
        ? { summary: `renamed the group ${groupName(edit.id)} to ${quote(edit.changes.name)}`, locationIds: [] }
        : { summary: `changed the ${listInWords(fields.map((field) => FIELD_NAMES[field] ?? field))} of the group ${groupName(edit.id)}`, locationIds: [] };
    }
    case 'GroupRemoved':
      return { summary: `removed the group ${groupName(edit.id)}`, locationIds: [] };
    case 'SettingsChanged':
      return { summary: "changed the map's settings", locationIds: [] };
    case 'RegionStylesChanged':
      return { summary: 'changed the colours of the regions', locationIds: [] };
    case 'LayerCalibrated':
      return { summary: `${edit.geo ? 'calibrated' : 'took the calibration off'} ${layerName(edit.id)}`, locationIds: [] };
    case 'ImportApplied': {
      if (edit.source.overrides) {
        return {
          summary: `used ${quote(edit.source.name || edit.source.format)}'s values for fields of ${count(edit.updates.length, 'location', 'locations')} edited in Mapfold`,
          locationIds: edit.updates.slice(0, 100).map((l) => l.id),
        };
      }
      if (edit.source.sync) {
        const removed = edit.removed?.length ?? 0;
        return {
          summary: `${syncSummary(edit.source.name || edit.source.format, { added: edit.locations.length, changed: edit.updates.length, removed })}${edit.part ? ` (part ${edit.part.number} of ${edit.part.of})` : ''}`,
          locationIds: [...edit.locations, ...edit.updates].slice(0, 100).map((l) => l.id),
        };
      }
      const parts = [
        edit.locations.length > 0 ? count(edit.locations.length, 'location', 'locations') : '',
        edit.updates.length > 0 ? `changes to ${count(edit.updates.length, 'location', 'locations')}` : '',
        edit.layers.length > 0 ? count(edit.layers.length, 'floor', 'floors') : '',
        edit.groups.length > 0 ? count(edit.groups.length, 'group', 'groups') : '',
      ].filter(Boolean);
      return {
        summary: `imported ${parts.length > 0 ? listInWords(parts) : 'nothing'} from ${quote(edit.source.name || edit.source.format)}${edit.part ? ` (part ${edit.part.number} of ${edit.part.of})` : ''}`,
        locationIds: edit.locations.slice(0, 100).map((l) => l.id),
      };
    }
    case 'LocationsRemoved':
      return { summary: `removed ${count(edit.ids.length, 'location', 'locations')}`, locationIds: edit.ids.slice(0, 100) };
    case 'PathsEdited':
      return { summary: describePathsEdit(edit), locationIds: [] };
    case 'DocumentImported':
      return { summary: `imported a map with ${count(edit.document.locations.length, 'location', 'locations')}`, locationIds: [] };
    case 'MapRestored': {
      const entry = before.status === 'active' ? before.history.find((item) => item.id === edit.historyId) : undefined;
      return { summary: `restored ${entry?.name ? quote(entry.name) : `the version of revision ${edit.revision}`}`, locationIds: [], historyId: edit.historyId };
    }
    default: {
      const unreachable: never = edit;
      return unreachable;
    }
  }
}

/**
 * What an event did, in words, with `actor` in front ("Ana moved …"). `before` is the map as
 * it was just before the event.
 */
export function describeEvent(before: MapAggregate, event: MapEvent, actor: string): EventDescription {
  const document = before.status === 'active' ? before.document : null;
  const entryName = (historyId: string) => {
    const entry = before.status === 'active' ? before.history.find((item) => item.id === historyId) : undefined;
    return entry?.name ? quote(entry.name) : 'a version';
  };
  const said = (description: EventDescription): EventDescription => ({ ...description, summary: `${actor} ${description.summary}` });
  switch (event.type) {
    case 'MapCreated':
      return said({ summary: `created the map ${quote(event.data.title)}`, locationIds: [] });
    case 'MapSaved': {
      const parts = [
        ...(event.data.title !== undefined ? [`renamed the map to ${quote(event.data.title)}`] : []),
        ...(event.data.document ? ["replaced the map's content"] : []),
      ];
      return said({ summary: parts.length > 0 ? listInWords(parts) : 'saved the map', locationIds: [] });
    }
    case 'MapDeleted':
      return said({ summary: 'deleted the map', locationIds: [] });
    case 'MapStateChanged': {
      const label = STATE_NAMES[event.data.state] ?? `state ${event.data.state}`;
      const wasSubscribed = before.status === 'active' && before.subscribed;
      const parts = [
        ...(before.status !== 'active' || before.state !== event.data.state ? [`set the map's state to ${label}`] : []),
        ...(event.data.subscribed !== wasSubscribed ? [event.data.subscribed ? 'marked it subscribed' : 'marked it not subscribed'] : []),
      ];
      return said({ summary: parts.length > 0 ? listInWords(parts) : "confirmed the map's state", locationIds: [] });
    }
    case 'VersionSaved':
      return event.data.auto
        ? { summary: `Mapfold kept a version${event.data.name ? ` ${quote(event.data.name)}` : ' before the edits that followed'}`, locationIds: [], historyId: event.data.historyId }
        : said({ summary: `saved the version ${event.data.name ? quote(event.data.name) : `of revision ${event.data.revision}`}`, locationIds: [], historyId: event.data.historyId });
    case 'VersionRenamed':
      return said({ summary: `renamed ${entryName(event.data.historyId)} to ${quote(event.data.name)}`, locationIds: [], historyId: event.data.historyId });
    case 'VersionDeleted':
      return said({ summary: `deleted the version ${entryName(event.data.historyId)}`, locationIds: [], historyId: event.data.historyId });
    case 'MapPublishModeSet':
      return said({ summary: `set “Publish edits” to ${event.data.mode === 'live' ? '“At once”' : '“When we publish”'}`, locationIds: [] });
    case 'MapPublished':
      return said({ summary: event.data.rollback ? `rolled the public map back to revision ${event.data.revision}` : `published revision ${event.data.revision}`, locationIds: [] });
    case 'MapPublishScheduled':
      return said({ summary: `scheduled revision ${event.data.revision} to be published at ${event.data.publishAt.slice(0, 10)} ${event.data.publishAt.slice(11, 16)} UTC`, locationIds: [] });
    case 'MapPublishScheduleCancelled':
      return said({ summary: 'cancelled the scheduled publish', locationIds: [] });
    default:
      if (isSharingEvent(event)) return { summary: describeSharingEvent(event, before.status === 'active' ? before.sharing : emptySharing(), actor), locationIds: [] };
      if (event.type === 'MapDataSourceSet') {
        const source = event.data.source;
        return said({ summary: source ? `set the map's data source to ${quote(dataSourceName(source))} (${source.schedule === 'manual' ? 'synced by hand' : `synced ${source.schedule}`})` : "took the map's data source off", locationIds: [] });
      }
      if (event.type === 'MapDataSourceSyncStarted') return { summary: 'Mapfold synced the data source on its schedule', locationIds: [] };
      if (event.type === 'MapDataSourceOverridesFound') {
        const fields = event.data.overrides.reduce((sum, override) => sum + Object.keys(override.source).filter((field) => field !== 'precision').length, 0) + event.data.more;
        return { summary: fields === 0 ? 'No field edited in Mapfold is overridden by the data source any more' : `The data source sync kept ${fields === 1 ? '1 field' : `${fields} fields`} edited in Mapfold (overridden)`, locationIds: event.data.overrides.slice(0, 100).map((o) => o.id) };
      }
      if (event.type === 'MapDataSourceOverridesResolved') {
        const kept = event.data.choices.filter((c) => c.choice === 'keep').length;
        const used = event.data.choices.length - kept;
        const parts = [kept > 0 ? `kept Mapfold's value of ${kept === 1 ? '1 overridden field' : `${kept} overridden fields`}` : '', used > 0 ? `used the data source's value for ${used === 1 ? '1 overridden field' : `${used} overridden fields`}` : ''].filter(Boolean);
        return said({ summary: parts.join(' and '), locationIds: [...new Set(event.data.choices.map((c) => c.id))].slice(0, 100) });
      }
      if (event.type === 'MapDataSourceSyncFailed') {
        return { summary: event.data.error ? `Syncing the data source failed: ${event.data.error}` : 'Syncing the data source works again', locationIds: [] };
      }
      if (!isEditEvent(event)) return said({ summary: 'changed the map', locationIds: [] });
      {
        const edit = editOf(event);
        // A sync says what it did first ("Sync from Stores sheet: 3 added, …"), then who ran it.
        if (edit.type === 'ImportApplied' && edit.source.sync) {
          const description = describeEdit(document, edit, before);
          return { ...description, summary: `${description.summary} (${actor})` };
        }
        return said(describeEdit(document, edit, before));
      }
  }
}
