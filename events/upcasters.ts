/**
 * Upcasting on read: events recorded by earlier versions with values today's schemas refuse
 * are read as the nearest thing those schemas take, so the readers (projections, deciders, the
 * live hub, history) need not know about them and the log is never edited. Applied in one
 * place, below every reader: the event store decorator `withUpcasting` (ports/event-store.ts),
 * wrapped around the store where it is opened.
 *
 * Each upcaster is versioned (the order they run in, oldest refusal first), pure, and leaves an
 * event it has nothing to change as it is (the same object: a valid log costs one walk, no
 * copy). They never throw: an event none of them can mend still reaches its readers as it was.
 *
 * | version | what old code could record                       | read as                               |
 * |---------|--------------------------------------------------|---------------------------------------|
 * | 1       | a location's `element` "11", "-99", "a b"        | `elementIdFor(raw)` (element-id.ts)   |
 * | 2       | non-finite numbers (JSON: null) in a floor's     | the calibration taken off; a position |
 * |         | calibration, a location's or path point's x/y,   | dropped (a move: its position taken   |
 * |         | a zoom, the initial view                         | off), a zoom or initial view null     |
 * | 3       | a floor drawing or map of 0 × 0 (tiny viewBox)   | sizes clamped to 1 … 100,000          |
 * | 4       | a document over the limits (MapRestored of one   | cut to the limits, references to what |
 * |         | edited past them, MapSaved, MapCreated, import)  | was cut dropped                       |
 * | 5       | text with NUL or a lone surrogate (a title cut   | NUL removed, a lone surrogate U+FFFD  |
 * |         | inside an emoji)                                 |                                       |
 */
import { elementIdFor, isSvgElementId } from './element-id.js';
import { MAX_LOCATIONS } from './map-document.js';
import { MAX_CONNECTORS, MAX_PATH_EDGES, MAX_PATH_NODES } from './path-network.js';
import { isSafeText } from './safe-text.js';

/** An event as the store gives it: its type and its data, of any shape. */
export interface StoredEvent {
  type: string;
  data: unknown;
}

export interface Upcaster {
  version: number;
  name: string;
  upcast(event: StoredEvent): StoredEvent;
}

type Data = Record<string, unknown>;

function isRecord(value: unknown): value is Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A copy of `items` with `fix` applied, or the same array when `fix` changed none. */
function mapSame<T>(items: readonly T[], fix: (item: T) => T): readonly T[] {
  let copy: T[] | null = null;
  items.forEach((item, index) => {
    const fixed = fix(item);
    if (fixed !== item) (copy ??= items.slice())[index] = fixed;
  });
  return copy ?? items;
}

/** `record` with `key` set to `fix(record[key])`, or the same record when nothing changed. */
function withField(record: Data, key: string, fix: (value: unknown) => unknown): Data {
  if (!(key in record)) return record;
  const value = record[key];
  const fixed = fix(value);
  return fixed === value ? record : { ...record, [key]: fixed };
}

function withArray(record: Data, key: string, fix: (item: unknown) => unknown): Data {
  return withField(record, key, (value) => (Array.isArray(value) ? mapSame(value, fix) : value));
}

/** Events whose data carries a whole document, and under which key. */
const DOCUMENT_KEY: Record<string, string> = { MapCreated: 'document', MapSaved: 'document', DocumentImported: 'document', MapRestored: 'document' };

/** Applies `fix` to the document an event carries, if any. */
function onDocument(event: StoredEvent, fix: (document: Data) => Data): StoredEvent {
  const key = DOCUMENT_KEY[event.type];
  if (!key || !isRecord(event.data)) return event;
  const data = withField(event.data, key, (document) => (isRecord(document) ? fix(document) : document));
  return data === event.data ? event : { type: event.type, data };
}

/**
 * Applies `fix` to every location an event carries, whole (`partial` false) or as changes of
 * one (`partial` true: only the fields it sets): in a document, an import, an add or update.
 */
function onLocations(event: StoredEvent, fix: (location: Data, partial: boolean) => Data): StoredEvent {
  const whole = (value: unknown) => (isRecord(value) ? fix(value, false) : value);
  const changes = (value: unknown) => (isRecord(value) ? fix(value, true) : value);
  const fixed = onDocument(event, (document) => withArray(document, 'locations', whole));
  if (fixed !== event || !isRecord(event.data)) return fixed;
  let data = event.data;
  switch (event.type) {
    case 'ImportApplied':
      data = withArray(data, 'locations', whole);
      data = withArray(data, 'updates', (update) => (isRecord(update) ? withField(update, 'changes', changes) : update));
      break;
    case 'LocationAdded':
      data = withField(data, 'location', whole);
      break;
    case 'LocationUpdated':
      data = withField(data, 'changes', changes);
      break;
  }
  return data === event.data ? event : { type: event.type, data };
}

/** Applies `fix` to every floor (layer) an event carries: in a document, an import, an added floor. */
function onLayers(event: StoredEvent, fix: (layer: Data) => Data): StoredEvent {
  const layer = (value: unknown) => (isRecord(value) ? fix(value) : value);
  const fixed = onDocument(event, (document) => withArray(document, 'layers', layer));
  if (fixed !== event || !isRecord(event.data)) return fixed;
  let data = event.data;
  if (event.type === 'ImportApplied') data = withArray(data, 'layers', layer);
  if (event.type === 'LayerAdded') data = withField(data, 'layer', layer);
  return data === event.data ? event : { type: event.type, data };
}

// ---- 1: element ids -------------------------------------------------------------------------

/** A location's region reference its schema refuses, as the reference to the same region. */
function fixElement(location: Data): Data {
  return withField(location, 'element', (element) => {
    if (typeof element !== 'string' || isSvgElementId(element)) return element;
    return element.trim() === '' ? null : elementIdFor(element);
  });
}

// ---- 2: finite numbers ----------------------------------------------------------------------

const isFinite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const isPoint = (value: unknown) => isRecord(value) && isFinite(value.x) && isFinite(value.y);
const within = (value: unknown, min: number, max: number) => isFinite(value) && value >= min && value <= max;

/**
 * Whether a floor's calibration can project anything: the shape `GeoCalibration` takes, read
 * without it (a calibration of Infinity, NaN or null is taken off, as no calibration).
 */
function isUsableCalibration(geo: unknown): boolean {
  if (!isRecord(geo)) return false;
  if (geo.kind === 'bounds') {
    return (
      within(geo.north, -90, 90) && within(geo.south, -90, 90) && within(geo.west, -540, 540) && within(geo.east, -540, 540) &&
      geo.north !== geo.south && geo.west !== geo.east
    );
  }
  if (geo.kind === 'd3') return isFinite(geo.scale) && geo.scale > 0 && Array.isArray(geo.translate) && geo.translate.length === 2 && geo.translate.every(isFinite);
  // Another kind is not ours to judge: the schema says what it says.
  return true;
}

function fixLayerCalibration(layer: Data): Data {
  if (!('geo' in layer) || layer.geo === undefined || isUsableCalibration(layer.geo)) return layer;
  const { geo: _geo, ...rest } = layer;
  return rest;
}

function fixLocationNumbers(location: Data): Data {
  let fixed = withField(location, 'position', (position) => (position === null || isPoint(position) ? position : null));
  fixed = withField(fixed, 'zoom', (zoom) => (zoom === null || within(zoom, 0.1, 64) ? zoom : null));
  return fixed;
}

function fixDocumentNumbers(document: Data): Data {
  let fixed = withField(document, 'settings', (settings) =>
    isRecord(settings) ? withField(settings, 'initialView', (view) => (view === null || (isPoint(view) && isRecord(view) && within(view.zoom, 0.1, 64)) ? view : null)) : settings,
  );
  fixed = withField(fixed, 'paths', (paths) => (isRecord(paths) ? withoutUnplacedNodes(paths) : paths));
  return fixed;
}

/** A path network without its points of no position, and what led to or stopped at them. */
function withoutUnplacedNodes(paths: Data): Data {
  const nodes = Array.isArray(paths.nodes) ? paths.nodes : [];
  if (nodes.every(isPoint)) return paths;
  const placed = nodes.filter(isPoint);
  return withoutMissingNodes({ ...paths, nodes: placed });
}

/** Edges and connectors' stops that name no node of the network taken out (connectors left with fewer than two stops go). */
function withoutMissingNodes(paths: Data): Data {
  const nodes = Array.isArray(paths.nodes) ? paths.nodes : [];
  const ids = new Set(nodes.map((node) => (isRecord(node) ? node.id : undefined)));
  const edges = Array.isArray(paths.edges) ? paths.edges.filter((edge) => isRecord(edge) && ids.has(edge.from) && ids.has(edge.to)) : paths.edges;
  const connectors = Array.isArray(paths.connectors)
    ? paths.connectors
        .map((connector) => (isRecord(connector) && Array.isArray(connector.nodes) ? { ...connector, nodes: connector.nodes.filter((id) => ids.has(id)) } : connector))
        .filter((connector) => !isRecord(connector) || !Array.isArray(connector.nodes) || connector.nodes.length >= 2)
    : paths.connectors;
  return { ...paths, edges, connectors };
}

/** A move to a position that is not a number: the location's position taken off instead. */
function fixMove(event: StoredEvent): StoredEvent {
  if (event.type !== 'LocationMoved' || !isRecord(event.data) || isPoint(event.data.position)) return event;
  const { position: _position, layer, ...rest } = event.data;
  return { type: 'LocationUpdated', data: { ...rest, changes: { position: null, ...(typeof layer === 'string' ? { layer } : {}) } } };
}

/** A calibration set to numbers that project nothing: the floor's calibration taken off. */
function fixCalibrated(event: StoredEvent): StoredEvent {
  if (event.type !== 'LayerCalibrated' || !isRecord(event.data) || event.data.geo === null || isUsableCalibration(event.data.geo)) return event;
  return { type: event.type, data: { ...event.data, geo: null } };
}

/** Path points put without a position: left out, with the links and stops that named them. */
function fixPathsEdited(event: StoredEvent): StoredEvent {
  if (event.type !== 'PathsEdited' || !isRecord(event.data) || !isRecord(event.data.put)) return event;
  const put = event.data.put;
  if (!Array.isArray(put.nodes) || put.nodes.every(isPoint)) return event;
  const dropped = new Set(put.nodes.filter((node) => !isPoint(node)).map((node) => (isRecord(node) ? node.id : undefined)));
  const edges = Array.isArray(put.edges) ? put.edges.filter((edge) => !isRecord(edge) || (!dropped.has(edge.from) && !dropped.has(edge.to))) : put.edges;
  return { type: event.type, data: { ...event.data, put: { ...put, nodes: put.nodes.filter(isPoint), edges } } };
}

// ---- 3: sizes -------------------------------------------------------------------------------

const SIZE_MAX = 100_000;
const clampSize = (value: unknown) => (isFinite(value) && value > 0 ? Math.min(value, SIZE_MAX) : 1);

/** A width and height the schemas take (positive, at most 100,000): a 0 × 0 drawing as 1 × 1. */
function fixSize(size: unknown): unknown {
  if (!isRecord(size)) return size;
  const width = clampSize(size.width);
  const height = clampSize(size.height);
  return width === size.width && height === size.height ? size : { ...size, width, height };
}

function fixLayerFile(layer: Data): Data {
  return withField(layer, 'file', fixSize);
}

function fixFileReplaced(event: StoredEvent): StoredEvent {
  if (event.type !== 'LayerFileReplaced' || !isRecord(event.data)) return event;
  const data = withField(event.data, 'file', fixSize);
  return data === event.data ? event : { type: event.type, data };
}

// ---- 4: a document's limits -----------------------------------------------------------------

/** The limits of today's document schema (events/map-document.ts) an old document may break. */
const LIMITS = { layers: 100, groups: 200, locations: MAX_LOCATIONS };
const LOCATION_TEXT: Record<string, number> = { title: 200, about: 500, description: 20_000, phone: 40, hours: 500, label: 60 };

/** The text cut to `max` UTF-16 units, never between the halves of a surrogate pair. */
function cut(text: string, max: number): string {
  const end = /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

/** The quick look that spares almost every location the copy below. */
function withinLocationLimits(location: Data): boolean {
  for (const key in LOCATION_TEXT) {
    const text = location[key];
    if (typeof text === 'string' && text.length > LOCATION_TEXT[key]!) return false;
  }
  const { groups, entrances } = location;
  return !(Array.isArray(groups) && groups.length > 50) && !(Array.isArray(entrances) && entrances.length > 20);
}

/** A location's text and lists cut to their limits. */
function fixLocationLimits(location: Data): Data {
  if (withinLocationLimits(location)) return location;
  let fixed = location;
  for (const [key, max] of Object.entries(LOCATION_TEXT)) {
    fixed = withField(fixed, key, (text) => (typeof text === 'string' && text.length > max ? cut(text, max) : text));
  }
  fixed = withField(fixed, 'groups', (groups) => (Array.isArray(groups) && groups.length > 50 ? groups.slice(0, 50) : groups));
  fixed = withField(fixed, 'entrances', (entrances) => (Array.isArray(entrances) && entrances.length > 20 ? entrances.slice(0, 20) : entrances));
  return fixed;
}

/** The first of each id: a later record repeating one is left out. */
function uniqueById(items: unknown[]): unknown[] {
  const seen = new Set<unknown>();
  return items.filter((item) => {
    const id = isRecord(item) ? item.id : undefined;
    if (id === undefined) return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/**
 * A document within today's limits: floors, groups and locations beyond them left out (the
 * first kept, as the editor lists them), then every reference to what was left out dropped:
 * locations on a floor no longer there, groups and entrances that are gone, the default floor,
 * path points on missing floors.
 */
function fixDocumentLimits(document: Data): Data {
  const layers = Array.isArray(document.layers) ? document.layers : null;
  const groups = Array.isArray(document.groups) ? document.groups : null;
  const locations = Array.isArray(document.locations) ? document.locations : null;
  if (!layers || !groups || !locations) return document;
  const over = layers.length > LIMITS.layers || groups.length > LIMITS.groups || locations.length > LIMITS.locations;
  const repeats = (items: unknown[]) => new Set(items.map((item) => (isRecord(item) ? item.id : item))).size !== items.length;
  if (!over && !repeats(layers) && !repeats(groups) && !repeats(locations)) return document;
  const keptLayers = uniqueById(layers).slice(0, LIMITS.layers);
  const keptGroups = uniqueById(groups).slice(0, LIMITS.groups);
  const layerIds = new Set(keptLayers.map((layer) => (isRecord(layer) ? layer.id : undefined)));
  const groupIds = new Set(keptGroups.map((group) => (isRecord(group) ? group.id : undefined)));
  const paths = isRecord(document.paths) && Array.isArray(document.paths.nodes)
    ? withoutMissingNodes({ ...document.paths, nodes: document.paths.nodes.filter((node) => !isRecord(node) || layerIds.has(node.layer)) })
    : document.paths;
  const nodeIds = new Set(isRecord(paths) && Array.isArray(paths.nodes) ? paths.nodes.map((node) => (isRecord(node) ? node.id : undefined)) : []);
  const keptLocations = uniqueById(locations)
    .filter((location) => !isRecord(location) || location.layer === undefined || layerIds.has(location.layer))
    .slice(0, LIMITS.locations)
    .map((location) => {
      if (!isRecord(location)) return location;
      let fixed = withField(location, 'groups', (ids) => (Array.isArray(ids) ? ids.filter((id) => groupIds.has(id)) : ids));
      fixed = withField(fixed, 'entrances', (ids) => (Array.isArray(ids) ? ids.filter((id) => nodeIds.has(id)) : ids));
      return fixed;
    });
  const settings = isRecord(document.settings) && typeof document.settings.defaultLayer === 'string' && !layerIds.has(document.settings.defaultLayer)
    ? { ...document.settings, defaultLayer: keptLayers.length > 0 && isRecord(keptLayers[0]) ? keptLayers[0].id : null }
    : document.settings;
  return { ...document, layers: keptLayers, groups: keptGroups, locations: keptLocations, paths, settings };
}

function fixPathLimits(document: Data): Data {
  return withField(document, 'paths', (paths) => {
    if (!isRecord(paths)) return paths;
    const over = (key: string, max: number) => Array.isArray(paths[key]) && (paths[key] as unknown[]).length > max;
    if (!over('nodes', MAX_PATH_NODES) && !over('edges', MAX_PATH_EDGES) && !over('connectors', MAX_CONNECTORS)) return paths;
    const cut = (key: string, max: number) => (Array.isArray(paths[key]) ? (paths[key] as unknown[]).slice(0, max) : paths[key]);
    return withoutMissingNodes({ ...paths, nodes: cut('nodes', MAX_PATH_NODES), edges: cut('edges', MAX_PATH_EDGES), connectors: cut('connectors', MAX_CONNECTORS) });
  });
}

// ---- 5: text --------------------------------------------------------------------------------

// eslint-disable-next-line no-control-regex -- NUL is the very character removed
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whether the text holds a NUL or any surrogate (then the slower exact check runs): one pass over its code units. */
function mayBeUnsafe(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit === 0 || (unit >= 0xd800 && unit <= 0xdfff)) return true;
  }
  return false;
}

function safeString(text: string): string {
  return !mayBeUnsafe(text) || isSafeText(text) ? text : text.replace(NUL, '').replace(LONE_SURROGATE, '\ufffd');
}

/** Every string of a value (keys too) as well-formed text: the same value when all already are. */
function safeText(value: unknown): unknown {
  if (typeof value === 'string') return safeString(value);
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return mapSame(value, safeText);
  const record = value as Data;
  let copy: Data | null = null;
  for (const key in record) {
    const item = record[key];
    const fixedKey = safeString(key);
    const fixed = safeText(item);
    if (fixed !== item || fixedKey !== key) {
      copy ??= { ...record };
      if (fixedKey !== key) delete copy[key];
      copy[fixedKey] = fixed;
    }
  }
  return copy ?? value;
}

// ---- the upcasters, in order --------------------------------------------------------------------

export const UPCASTERS: readonly Upcaster[] = [
  { version: 1, name: 'element ids', upcast: (event) => onLocations(event, fixElement) },
  {
    version: 2,
    name: 'finite numbers',
    upcast: (event) => {
      let fixed = onLayers(event, fixLayerCalibration);
      fixed = onLocations(fixed, fixLocationNumbers);
      fixed = onDocument(fixed, fixDocumentNumbers);
      return fixPathsEdited(fixCalibrated(fixMove(fixed)));
    },
  },
  {
    version: 3,
    name: 'sizes',
    upcast: (event) => fixFileReplaced(onDocument(onLayers(event, fixLayerFile), (document) => withField(document, 'settings', (settings) => (isRecord(settings) ? withField(settings, 'size', fixSize) : settings)))),
  },
  { version: 4, name: 'document limits', upcast: (event) => onDocument(onLocations(event, fixLocationLimits), (document) => fixPathLimits(fixDocumentLimits(document))) },
  {
    version: 5,
    name: 'text',
    upcast: (event) => {
      const data = safeText(event.data);
      return data === event.data ? event : { type: event.type, data };
    },
  },
];

/** The newest upcaster's version: what an event read through {@link upcast} is brought up to. */
export const UPCAST_VERSION = UPCASTERS[UPCASTERS.length - 1]!.version;

/** The event as today's schemas read it: every upcaster in order; the same object when none changed it. */
export function upcast<E extends StoredEvent>(event: E): E {
  let current: StoredEvent = event;
  for (const upcaster of UPCASTERS) current = upcaster.upcast(current);
  return current === event ? event : { ...event, type: current.type, data: current.data };
}
