/**
 * Which ids in a drawing name a place: ids a person gave (`shop-12`, `H865`, `food-court`)
 * against ids a drawing program made up (`path3677`, `rect837-0-8`, `g45`, `layer1`,
 * `XMLID_5_`). The server's region list (server/import/svg-regions.ts) leaves made-up ids
 * unticked; the editor (components/map/svg-layer.ts) offers only meaningful ids to link when a
 * click lands in a drawing, and places a pin anywhere else. Pure and free of zod, so the
 * drawing code of the viewer takes it as it is.
 */

/**
 * Names drawing programs give elements, followed by a number: Inkscape (`path3677`, `rect837-0-8`,
 * `g123`, `layer1`, `tspan4`), Illustrator (`Layer_1`, `Group_5`, `Capa_1` and its other
 * languages' words for layer), svg-edit (`svg_12`), Figma (`Vector_2`, `Rectangle 12`).
 * `g` alone is left to {@link isGeneratedId}: a mall's unit `g12` is a place, a `<g id="g12">` is not.
 */
const GENERATED_NAMES = [
  'path', 'rect', 'rectangle', 'circle', 'ellipse', 'line', 'polyline', 'polygon', 'poly', 'group', 'layer',
  'svg', 'text', 'tspan', 'use', 'image', 'img', 'shape', 'vector', 'defs', 'clippath', 'clip', 'clip-path',
  'mask', 'pattern', 'symbol', 'marker', 'lineargradient', 'radialgradient', 'gradient', 'stop', 'filter',
  'metadata', 'namedview', 'base', 'object', 'obj', 'flowroot', 'flowpara', 'flowregion', 'star', 'spiral',
  'capa', 'calque', 'ebene', 'livello', 'laag', 'camada', 'warstwa', 'compound', 'union', 'subtract',
  'intersect', 'frame', 'component', 'instance', 'boolean', 'outline', 'stroke', 'fill', 'copy', 'svgrepo',
].join('|');
const GENERATED = new RegExp(
  `^(?:(?:${GENERATED_NAMES})[\\s_-]*\\d*(?:[-_.]\\d+)*_?` + // path3677, rect837-0-8, Layer_1, svg_12, Vector
    '|XMLID_\\d+_?' + // Illustrator
    // Illustrator's _1, _x31_ (an id that began with a digit); a bare number (`01`, `101`) is a person's code: a shop's, a department's.
    '|(?:_x?|x)\\d+_?(?:[-_.]\\d+)*_?' +
    '|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}' + // a UUID
    '|SVGRepo_\\w+' +
    ')$',
  'i',
);

/** Whether an id (or a label) was made by a program, not by a person; `tag` is the element's name. */
export function isGeneratedId(id: string, tag = ''): boolean {
  if (GENERATED.test(id)) return true;
  // Inkscape's groups are g123; a shape called g12 is more likely unit G12 of a ground floor.
  return tag.toLowerCase() === 'g' && /^g\d+(?:[-_.]\d+)*$/i.test(id);
}

/** What is known of an element when a click in the drawing may mean it. */
export interface RegionCandidate {
  id: string;
  /** The element's name (`rect`, `g`, `path`). */
  tag: string;
  /** A layer: Inkscape's `inkscape:groupmode="layer"`, or a group directly under the `<svg>`. */
  layer: boolean;
}

/**
 * Whether a click on this element means it as a region: a person gave it its id, and it is not
 * the drawing's outer group or a layer (which hold everything: a click there is a place on the
 * plan, not the layer).
 */
export function isMeaningfulRegion({ id, tag, layer }: RegionCandidate): boolean {
  if (layer || !id.trim()) return false;
  return !isGeneratedId(id, tag);
}
