/**
 * Every kind of `editMap` edit (events/map-edits.ts DocumentEdit), generated as a seed of random
 * material and made into a valid edit against the document it will apply to: targets are picked
 * among what the document has, new ids made unique, names cut to their fields' limits at a code
 * point. Documents for createMap, saveMap and DocumentImported come from the same material.
 * Used by test/server/core-contract.property.test.ts.
 */
import fc from 'fast-check';
import { VIEWER_LANGUAGES } from '../../../events/locales.js';
import { MapDocumentInput, type GeoCalibration, type LayerFile, type MapDocument } from '../../../events/map-document.js';
import { applyEdit, checkEdit, DocumentEdit, type MapEdit } from '../../../events/map-edits.js';
import { CONNECTOR_KINDS } from '../../../events/path-network.js';
import { awkwardElementId, awkwardSvgElementId, awkwardText, clip, uniqueElementId } from './awkward-text.js';

export const EDIT_KINDS = [
  'LocationAdded', 'LocationUpdated', 'LocationMoved', 'LocationRemoved', 'LayerAdded', 'LayerRenamed', 'LayersReordered',
  'LayerFileReplaced', 'LayerCalibrated', 'LayerRemoved', 'GroupAdded', 'GroupUpdated', 'GroupRemoved', 'SettingsChanged',
  'RegionStylesChanged', 'DocumentImported', 'ImportApplied', 'LocationsRemoved', 'PathsEdited',
] as const satisfies ReadonlyArray<DocumentEdit['type']>;
export type EditKind = (typeof EDIT_KINDS)[number];

/** What the generators may do beyond the plainly legal (each flag names the open bug it waits for). */
export interface GeneratorFlags {
  /** Calibrations at the edge of legal: `north: 90` in Mercator, spans of a millionth of a degree (issue 26: degenerate calibrations). */
  edgeCalibrations: boolean;
  /** One id named many times in one LocationsRemoved (issue 26: a location count of −49). */
  repeatedRemovals: boolean;
}

const COLOURS = ['#4f46e5', '#000000', '#FFFFFF', '#abcdef', '#e11d48'] as const;
const colour = fc.constantFrom(...COLOURS);
const coordinate = fc.oneof(fc.double({ min: -5000, max: 5000, noNaN: true }), fc.constantFrom(0, -0, 0.5, 1e-9, 99999));

/** A legal calibration; at the edges of legal when the flag says so. */
export function calibration(flags: GeneratorFlags): fc.Arbitrary<GeoCalibration> {
  const latitude = flags.edgeCalibrations ? fc.oneof(fc.double({ min: -90, max: 90, noNaN: true }), fc.constantFrom(90, -90)) : fc.double({ min: -80, max: 80, noNaN: true });
  const span = flags.edgeCalibrations ? fc.oneof(fc.double({ min: 0.5, max: 60, noNaN: true }), fc.constant(1e-6)) : fc.double({ min: 0.5, max: 60, noNaN: true });
  const bounds = fc
    .record({ projection: fc.constantFrom('equirectangular' as const, 'mercator' as const), north: latitude, span, west: fc.double({ min: -540, max: 480, noNaN: true }), width: span })
    .map(({ projection, north, span: height, west, width }) => {
      const south = north - height >= -90 ? north - height : north + height;
      return { kind: 'bounds' as const, projection, north, south: Math.min(90, south), west, east: west + width };
    })
    .filter((bounds) => bounds.north !== bounds.south && bounds.west !== bounds.east);
  const d3 = fc.record({
    kind: fc.constant('d3' as const),
    projection: fc.constantFrom('natural-earth-1' as const, 'albers-usa' as const, 'mercator' as const, 'equirectangular' as const),
    scale: fc.double({ min: 1, max: 5000, noNaN: true }),
    translate: fc.tuple(fc.double({ min: -2000, max: 2000, noNaN: true }), fc.double({ min: -2000, max: 2000, noNaN: true })),
  });
  return fc.oneof(bounds, d3);
}

/** Material for a whole document (createMap, saveMap, DocumentImported). */
export interface DocumentSeed {
  layers: Array<{ id: string; name: string; geo: GeoCalibration | null }>;
  groups: Array<{ id: string; name: string; colour: string; legend: boolean }>;
  locations: Array<{ id: string; title: string; layer: number; groups: number[]; element: string | null; x: number; y: number; positioned: boolean }>;
  language: (typeof VIEWER_LANGUAGES)[number];
}

export function documentSeed(flags: GeneratorFlags): fc.Arbitrary<DocumentSeed> {
  return fc.record({
    // Edge calibrations only come as edits (which may be refused, naming the edit), never inside a document.
    layers: fc.array(fc.record({ id: awkwardElementId, name: awkwardText, geo: fc.option(calibration({ ...flags, edgeCalibrations: false }), { nil: null }) }), { minLength: 1, maxLength: 3 }),
    groups: fc.array(fc.record({ id: awkwardElementId, name: awkwardText, colour, legend: fc.boolean() }), { maxLength: 3 }),
    locations: fc.array(
      fc.record({
        id: awkwardElementId,
        title: awkwardText,
        layer: fc.nat(),
        groups: fc.array(fc.nat(), { maxLength: 2 }),
        element: fc.option(awkwardSvgElementId, { nil: null }),
        x: coordinate,
        y: coordinate,
        positioned: fc.boolean(),
      }),
      { maxLength: 5 },
    ),
    language: fc.constantFrom(...VIEWER_LANGUAGES),
  });
}

/** The document a seed makes, as createMap takes it (checked with MapDocumentInput: a generator bug fails here). */
export function buildDocument(seed: DocumentSeed): MapDocument {
  const layerIds = new Set<string>();
  const layers = seed.layers.map((layer) => ({
    id: uniqueElementId(layer.id, layerIds),
    name: clip(layer.name, 100),
    file: null,
    ...(layer.geo ? { geo: layer.geo } : {}),
  }));
  const groupIds = new Set<string>();
  const groups = seed.groups.map((group) => ({ id: uniqueElementId(group.id, groupIds), name: clip(group.name, 100), color: group.colour, legend: group.legend }));
  const locationIds = new Set<string>();
  // A region stands for one location (events/map-edits.ts): a floor's region is given once.
  const regions = new Set<string>();
  const locations = seed.locations.map((location) => {
    const layer = layers[location.layer % layers.length]!.id;
    const region = location.element === null ? null : `${layer}\u0000${location.element}`;
    const element = region === null || regions.has(region) ? null : location.element;
    if (region !== null) regions.add(region);
    return {
      id: uniqueElementId(location.id, locationIds),
      title: clip(location.title, 200),
      layer,
      groups: groups.length > 0 ? [...new Set(location.groups.map((g) => groups[g % groups.length]!.id))] : [],
      element,
      position: location.positioned ? { x: location.x, y: location.y } : null,
    };
  });
  return MapDocumentInput.parse({
    version: 3,
    settings: {
      size: { width: 1200, height: 800 }, minZoom: 1, maxZoom: 8, initialView: null,
      theme: { mode: 'light', accent: '#4f46e5', background: '#f8fafc' },
      features: { sidebar: true, search: true, filters: true, minimap: false, zoomButtons: true, fullscreen: true, deepLinks: true },
      defaultLayer: layers[0]!.id,
      language: seed.language,
    },
    layers,
    locations,
    groups,
    styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
    paths: { nodes: [], edges: [], connectors: [] },
  });
}

/** Random material for one edit; which parts are used depends on the kind. */
export interface EditSeed {
  kind: EditKind;
  /** Picks the edit's target among the document's (modulo their number). */
  pick: number;
  /** A second pick (another floor, a group, which fields change). */
  other: number;
  id: string;
  svgId: string | null;
  text: string;
  x: number;
  y: number;
  colour: string;
  flag: boolean;
  /** How many things (ids removed, records put, times an id repeats). */
  count: number;
  geo: GeoCalibration | null;
  document: DocumentSeed;
}

export function editSeed(flags: GeneratorFlags): fc.Arbitrary<EditSeed> {
  return fc.record({
    kind: fc.constantFrom(...EDIT_KINDS),
    pick: fc.nat(),
    other: fc.nat(),
    id: awkwardElementId,
    svgId: fc.option(awkwardSvgElementId, { nil: null }),
    text: awkwardText,
    x: coordinate,
    y: coordinate,
    colour,
    flag: fc.boolean(),
    count: fc.integer({ min: 1, max: 4 }),
    geo: fc.option(calibration(flags), { nil: null }),
    // Only DocumentImported uses it: small, so most seeds stay cheap.
    document: documentSeed(flags),
  });
}

const pickOf = <T>(items: readonly T[], n: number): T | undefined => (items.length > 0 ? items[n % items.length] : undefined);
const idsOf = (items: ReadonlyArray<{ id: string }>) => new Set(items.map((item) => item.id));
/** Bit `bit` of `n`: which optional fields an update sets. */
const bitOf = (n: number, bit: number) => Math.floor(n / 2 ** bit) % 2 === 1;

/**
 * The edit a seed makes against `document`, or null when the document has nothing it can act
 * on (no location to update). `files` are drawings stored beforehand (LayerFileReplaced).
 */
export function resolveEdit(seed: EditSeed, document: MapDocument, flags: GeneratorFlags, files: readonly LayerFile[]): DocumentEdit | null {
  const { layers, groups, locations } = document;
  const nodes = document.paths.nodes;
  const layer = pickOf(layers, seed.pick)!;
  const location = pickOf(locations, seed.pick);
  const group = pickOf(groups, seed.pick);
  switch (seed.kind) {
    case 'LocationAdded': {
      const on = pickOf(layers, seed.other)!;
      const entrance = pickOf(nodes, seed.other);
      const element = regionTaken(document, on.id, seed.svgId, null) ? null : seed.svgId;
      return {
        type: 'LocationAdded',
        location: {
          id: uniqueElementId(seed.id, idsOf(locations)), title: clip(seed.text, 200), layer: on.id,
          about: '', description: seed.flag ? `<p>${clip(seed.text, 100)}</p>` : '', image: null, thumbnail: null, link: seed.flag ? 'https://example.com/a b' : null,
          phone: '', hours: '', position: seed.flag ? { x: seed.x, y: seed.y } : null, element, zoom: null, marker: 'pin', color: null, label: clip(seed.text, 60),
          groups: group ? [group.id] : [], hidden: false, entrances: entrance && seed.flag ? [entrance.id] : [],
        },
      };
    }
    case 'LocationUpdated': {
      if (!location) return null;
      const changes: Extract<DocumentEdit, { type: 'LocationUpdated' }>['changes'] = {};
      if (bitOf(seed.other, 0)) changes.title = clip(seed.text, 200);
      if (bitOf(seed.other, 1)) changes.about = clip(seed.text, 500);
      if (bitOf(seed.other, 2)) changes.layer = pickOf(layers, seed.count)!.id;
      if (bitOf(seed.other, 3)) changes.groups = group ? [group.id] : [];
      if (bitOf(seed.other, 4)) changes.element = seed.svgId;
      if (bitOf(seed.other, 5)) changes.color = seed.flag ? seed.colour : null;
      if (bitOf(seed.other, 6)) changes.hidden = seed.flag;
      // Linked (or moved) onto a region another location of that floor has: unlinked instead.
      if (changes.element !== undefined || changes.layer !== undefined) {
        const element = changes.element === undefined ? location.element : changes.element;
        if (regionTaken(document, changes.layer ?? location.layer, element, location.id)) changes.element = null;
      }
      if (bitOf(seed.other, 7)) changes.marker = seed.flag ? 'label' : 'dot';
      if (bitOf(seed.other, 8)) changes.zoom = seed.flag ? 64 : 0.1;
      return { type: 'LocationUpdated', id: location.id, changes };
    }
    case 'LocationMoved':
      if (!location) return null;
      {
        // Onto another floor only where its region is nobody's.
        const to = seed.flag ? pickOf(layers, seed.other)!.id : undefined;
        const layer = to !== undefined && to !== location.layer && regionTaken(document, to, location.element, location.id) ? undefined : to;
        return { type: 'LocationMoved', id: location.id, position: { x: seed.x, y: seed.y }, ...(layer !== undefined ? { layer } : {}) };
      }
    case 'LocationRemoved':
      return location ? { type: 'LocationRemoved', id: location.id } : null;
    case 'LayerAdded':
      if (layers.length >= 100) return null;
      return {
        type: 'LayerAdded',
        layer: { id: uniqueElementId(seed.id, idsOf(layers)), name: clip(seed.text, 100), file: seed.flag ? (pickOf(files, seed.other) ?? null) : null, ...(seed.geo ? { geo: seed.geo } : {}) },
      };
    case 'LayerRenamed':
      return { type: 'LayerRenamed', id: layer.id, name: clip(seed.text, 100) };
    case 'LayersReordered': {
      const shift = seed.other % layers.length;
      const order = [...layers.slice(shift), ...layers.slice(0, shift)].map((l) => l.id);
      return { type: 'LayersReordered', order: seed.flag ? order.reverse() : order };
    }
    case 'LayerFileReplaced':
      return { type: 'LayerFileReplaced', id: layer.id, file: seed.flag ? (pickOf(files, seed.other) ?? null) : null };
    case 'LayerCalibrated':
      return { type: 'LayerCalibrated', id: layer.id, geo: seed.geo };
    case 'LayerRemoved':
      return layers.length > 1 ? { type: 'LayerRemoved', id: layer.id, removedLocations: [] } : null;
    case 'GroupAdded':
      if (groups.length >= 200) return null;
      return { type: 'GroupAdded', group: { id: uniqueElementId(seed.id, idsOf(groups)), name: clip(seed.text, 100), color: seed.colour, legend: seed.flag } };
    case 'GroupUpdated':
      if (!group) return null;
      return { type: 'GroupUpdated', id: group.id, changes: { ...(bitOf(seed.other, 0) ? { name: clip(seed.text, 100) } : {}), ...(bitOf(seed.other, 1) ? { color: seed.colour } : {}), legend: seed.flag } };
    case 'GroupRemoved':
      return group ? { type: 'GroupRemoved', id: group.id } : null;
    case 'SettingsChanged':
      return {
        type: 'SettingsChanged',
        settings: {
          ...document.settings,
          minZoom: seed.flag ? 0.1 : 1,
          maxZoom: seed.flag ? 64 : 8,
          defaultLayer: bitOf(seed.other, 0) ? null : pickOf(layers, seed.other)!.id,
          initialView: bitOf(seed.other, 1) ? { x: seed.x, y: seed.y, zoom: 2 } : null,
          theme: { ...document.settings.theme, mode: seed.flag ? 'dark' : 'light', accent: seed.colour },
          language: VIEWER_LANGUAGES[seed.other % VIEWER_LANGUAGES.length]!,
        },
      };
    case 'RegionStylesChanged':
      return { type: 'RegionStylesChanged', regions: { base: seed.colour, hover: COLOURS[seed.other % COLOURS.length]!, active: COLOURS[seed.pick % COLOURS.length]! } };
    case 'DocumentImported':
      return { type: 'DocumentImported', document: buildDocument(seed.document) };
    case 'ImportApplied': {
      const layerIds = idsOf(layers);
      const groupIds = idsOf(groups);
      const locationIds = idsOf(locations);
      // A new floor or group only below the document's limits (a map at 100 floors or 200 groups, the `toLimit` step's, takes none).
      const newLayers = seed.flag && layers.length < 100 ? [{ id: uniqueElementId(seed.id, layerIds), name: clip(seed.text, 100), file: null, ...(seed.geo ? { geo: seed.geo } : {}) }] : [];
      const newGroups = bitOf(seed.other, 0) && groups.length < 200 ? [{ id: uniqueElementId(seed.id, groupIds), name: clip(seed.text, 100), color: seed.colour, legend: true }] : [];
      const on = newLayers[0]?.id ?? layer.id;
      // One location a region: the updated location links it if its floor's is free, else the first added one may.
      const updated = location && bitOf(seed.other, 1) ? location : undefined;
      const linked = updated && !regionTaken(document, updated.layer, seed.svgId, updated.id) ? seed.svgId : null;
      const firstTakes = !regionTaken(document, on, seed.svgId, null) && !(linked !== null && updated?.layer === on);
      const added = Array.from({ length: seed.count }, (_, i) => ({
        id: uniqueElementId(i === 0 ? seed.id : `${seed.id.slice(0, 60)}_${i}`, locationIds), title: clip(seed.text, 200), layer: on,
        about: '', description: '', image: null, thumbnail: null, link: null, phone: '', hours: '', position: { x: seed.x + i, y: seed.y },
        element: i === 0 && firstTakes ? seed.svgId : null, zoom: null, marker: 'pin' as const, color: null, label: '', groups: newGroups.map((g) => g.id), hidden: false, entrances: [],
      }));
      const updates = updated ? [{ id: updated.id, changes: { title: clip(seed.text, 200), element: linked } }] : [];
      return {
        type: 'ImportApplied',
        source: { format: 'csv', name: clip(seed.text, 200), mapping: bitOf(seed.other, 2) ? { title: clip(seed.text, 200) } : null },
        layers: newLayers, groups: newGroups, locations: added, updates,
      };
    }
    case 'LocationsRemoved': {
      if (!location) return null;
      const ids = Array.from({ length: seed.count }, (_, i) => locations[(seed.pick + i) % locations.length]!.id);
      // Each id once unless the flag lets one id repeat (an import undone twice, a double click).
      return { type: 'LocationsRemoved', ids: flags.repeatedRemovals ? ids : [...new Set(ids)] };
    }
    case 'PathsEdited': {
      // Removed: an existing point (its links, stops and entrances go with it), and an id nobody has (passed over).
      const removedNode = bitOf(seed.other, 2) ? pickOf(nodes, seed.pick) : undefined;
      const taken = idsOf(nodes);
      const put = Array.from({ length: seed.count }, (_, i) => ({
        id: uniqueElementId(seed.id, taken), layer: pickOf(layers, seed.other + (seed.flag ? 0 : i))!.id, x: seed.x + i * 10, y: seed.y - i * 10,
      }));
      const all = [...nodes.filter((node) => node !== removedNode), ...put];
      const edges = [];
      const edgeIds = idsOf(document.paths.edges);
      for (let i = 1; i < put.length; i++) {
        const from = put[i - 1]!;
        const to = put[i]!;
        if (from.layer === to.layer) edges.push({ id: uniqueElementId(`${seed.id.slice(0, 50)}-e`, edgeIds), from: from.id, to: to.id, stepFree: seed.flag, oneWay: !seed.flag });
      }
      // A connector between the first two floors that have points, one stop on each.
      const byLayer = new Map<string, string>();
      for (const node of all) if (!byLayer.has(node.layer)) byLayer.set(node.layer, node.id);
      const stops = [...byLayer.values()].slice(0, 2);
      const connectors = stops.length === 2 && bitOf(seed.other, 1)
        ? [{ id: uniqueElementId(`${seed.id.slice(0, 50)}-c`, idsOf(document.paths.connectors)), kind: CONNECTOR_KINDS[seed.pick % CONNECTOR_KINDS.length]!, name: clip(seed.text, 100, ''), nodes: stops }]
        : [];
      return {
        type: 'PathsEdited',
        put: { nodes: put, edges, connectors },
        removed: { nodes: [...(removedNode ? [removedNode.id] : []), ...(bitOf(seed.other, 3) ? ['nobody-has-this'] : [])], edges: [], connectors: [] },
      };
    }
  }
}

/**
 * Whether another location of `layer` than `self` has the region `element`: the decider's rule
 * that a region stands for one location (events/map-edits.ts), which the generator keeps.
 */
function regionTaken(document: MapDocument, layer: string, element: string | null, self: string | null): boolean {
  return element !== null && document.locations.some((l) => l.id !== self && l.layer === layer && l.element === element);
}

/** Whether an edit carries a calibration (where an edge one sits). */
const calibrates = (edit: DocumentEdit) =>
  (edit.type === 'LayerCalibrated' && edit.geo !== null) || (edit.type === 'LayerAdded' && edit.layer.geo !== undefined) || (edit.type === 'ImportApplied' && edit.layers.some((layer) => layer.geo));

/** Whether an edit names one location twice (with `repeatedRemovals`): refused (400) or taken, never a broken read model. */
function repeatsRemovals(edit: DocumentEdit): boolean {
  return edit.type === 'LocationsRemoved' && new Set(edit.ids).size < edit.ids.length;
}

/**
 * The edits of one `editMap` call made from seeds against `document`, each checked as the
 * decider will check it (a generator bug fails here, naming the edit, not as a 400 later).
 * Edits at the edge of legal (the flags') are checked without what makes them so, and listed in
 * `mayBeRefused`: the product may refuse them (naming the edit) or take them, never break on them.
 */
export function resolveEdits(seeds: readonly EditSeed[], document: MapDocument, flags: GeneratorFlags, files: readonly LayerFile[]): { edits: DocumentEdit[]; mayBeRefused: number[] } {
  const edits: DocumentEdit[] = [];
  const mayBeRefused: number[] = [];
  let current = document;
  for (const seed of seeds) {
    const edit = resolveEdit(seed, current, flags, files);
    if (!edit) continue;
    const edge = (flags.edgeCalibrations && calibrates(edit)) || (flags.repeatedRemovals && repeatsRemovals(edit));
    const valid = DocumentEdit.safeParse(edit);
    const recorded: MapEdit = edit.type === 'LayerRemoved' ? { ...edit, removedLocations: current.locations.filter((l) => l.layer === edit.id).map((l) => l.id) } : edit;
    // A repeated id is checked as the one it repeats.
    const problem = valid.success ? checkEdit(current, recorded.type === 'LocationsRemoved' ? { ...recorded, ids: [...new Set(recorded.ids)] } : recorded) : valid.error.message;
    if (problem && !(edge && /geo/.test(problem))) throw new Error(`the generator made an invalid ${edit.type}: ${problem}`);
    if (edge) mayBeRefused.push(edits.length);
    current = applyEdit(current, recorded);
    edits.push(edit);
  }
  return { edits, mayBeRefused };
}
