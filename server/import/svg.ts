/**
 * An SVG drawing as an import (format `svg`): its regions (svg-regions.ts) become locations,
 * each linked to its region (`element`), titled from the drawing, with no position of its own
 * (a region's location sits on its region).
 *
 * Two ways in:
 * - a new floor: the file is the floor's drawing (stored through the sanitiser on apply, as an
 *   upload is) and its regions are the floor's locations;
 * - `?layer=` (targetLayer): the regions of that existing floor's drawing (the client sends
 *   the floor's stored SVG as the body) become its locations; regions a location of that floor
 *   already stands for are left out.
 *
 * Which regions: every one the user did not untick (`options.skipRegions`); regions whose ids a
 * drawing program made up (`path3677`) only when ticked (`options.includeRegions`). The
 * preview's `regions` lists them all with their ticks, for the editor's list.
 */
import { ElementId } from '../../events/map-document.js';
import type { ImportPlan, ImportProblem, PlannedFloor, PlannedLocation } from '../../events/map-import.js';
import type { ImportInput } from './import-input.js';
import { importRefusal } from './refusal.js';
import { readSvgRegions } from './svg-regions.js';
import { truncateText } from '../../events/safe-text.js';

/** The name the drawing is stored under when the upload gave none. */
const DEFAULT_NAME = 'drawing.svg';
const quote = (text: string) => `“${text.length > 60 ? `${truncateText(text, 59)}…` : text}”`;

/** A floor's name from the file's: `ground-floor_v2.svg` → "ground-floor_v2". */
function floorName(filename: string, documentTitle: string | null): string {
  if (documentTitle) return truncateText(documentTitle, 100);
  const base = filename.replace(/^.*[\\/]/, '').replace(/\.svgz?$/i, '').trim();
  return truncateText(base, 100) || 'Floor plan';
}

export function parseSvg(input: ImportInput): ImportPlan {
  const { document, options } = input;
  const read = readSvgRegions(input.text);
  const problems: ImportProblem[] = [];

  const target = input.targetLayer === undefined ? null : document.layers.find((layer) => layer.id === input.targetLayer);
  if (target === undefined) {
    throw importRefusal('svg', `the floor ${quote(input.targetLayer ?? '')} is not on this map`, "Choose one of the map's floors and try again.");
  }

  // The floor the locations go on: the existing one, or a new one whose drawing is this file.
  let floorKey: string;
  const floors: PlannedFloor[] = [];
  if (target) {
    floorKey = target.id;
  } else {
    const name = input.filename.replace(/^.*[\\/]/, '').trim() || DEFAULT_NAME;
    // The planner stores the drawing by its name among the files that came with the import.
    if (!input.attachments.has(name)) input.attachments.set(name, input.bytes);
    floorKey = `svg:${name}`;
    floors.push({ key: floorKey, name: floorName(name, read.documentTitle), drawing: { kind: 'attachment', name } });
  }

  // Regions a location of the target floor stands for already are not offered again.
  const linked = new Set(target ? document.locations.filter((location) => location.layer === target.id && location.element).map((location) => location.element!) : []);
  const skip = new Set(options.skipRegions ?? []);
  const include = new Set(options.includeRegions ?? []);
  const takenIds = new Set(document.locations.map((location) => location.id));

  const regions: NonNullable<ImportPlan['regions']> = [];
  const locations: PlannedLocation[] = [];
  let autoLeft = 0;
  read.regions.forEach((region, index) => {
    const isLinked = linked.has(region.id);
    const selected = !isLinked && !skip.has(region.id) && (include.has(region.id) || !region.auto);
    regions.push({ id: region.id, title: region.title, selected, linked: isLinked, ...(region.fromText ? { fromText: true } : {}) });
    if (!selected) {
      if (region.auto && !isLinked && !skip.has(region.id)) autoLeft += 1;
      return;
    }
    // The region's id (a code as the drawing writes it, `01`) is the location's when it can be one and is free; else the planner makes one from the title.
    const own = region.source ?? region.id;
    const id = ElementId.safeParse(own).success && !takenIds.has(own) ? own : null;
    locations.push({ row: index + 1, id, fields: { title: region.title }, floor: floorKey, position: null, groups: [], element: region.id });
  });

  if (read.regions.length === 0) {
    problems.push({
      row: null,
      field: null,
      message: target
        ? `The drawing of the floor ${quote(target.name)} has no shapes with ids, so there are no regions to make locations of. Give the shapes ids in your drawing program and upload it again.`
        : 'The drawing has no shapes with ids: the floor is made without locations. Give the shapes ids in your drawing program (Inkscape: Object properties; Illustrator: layer names) to make them locations.',
    });
  } else if (locations.length === 0 && regions.some((region) => region.linked) && regions.every((region) => region.linked || region.selected === false)) {
    problems.push({ row: null, field: null, message: 'Every region of this drawing has a location already: there is nothing new to make.' });
  }
  if (autoLeft > 0) {
    problems.push({
      row: null,
      field: 'element',
      message: `${autoLeft === 1 ? '1 region has an id' : `${autoLeft} regions have ids`} a drawing program made up (like ${quote(read.regions.find((region) => region.auto)!.id)}) and ${autoLeft === 1 ? 'was' : 'were'} left unticked: tick ${autoLeft === 1 ? 'it' : 'them'} in the list to make locations of ${autoLeft === 1 ? 'it' : 'them'} too.`,
    });
  }
  if (read.unusable.length > 0) {
    const examples = read.unusable.slice(0, 3).map(quote).join(', ');
    problems.push({
      row: null,
      field: 'element',
      message: `${read.unusable.length === 1 ? '1 shape has an id' : `${read.unusable.length} shapes have ids`} a location cannot stand for (${examples}): ids hold only letters, digits, -, _, . or :, and no two alike. Rename ${read.unusable.length === 1 ? 'it' : 'them'} in the drawing to offer ${read.unusable.length === 1 ? 'it' : 'them'} as regions.`,
    });
  }

  return {
    format: 'svg',
    floors,
    groups: [],
    locations,
    columns: { used: [], ignored: [] },
    mapping: null,
    problems,
    ...(target ? { targetFloor: target.id } : {}),
    regions,
  };
}
