/**
 * A map as an IMDF archive's files (Apple's Indoor Mapping Data Format, OGC Community Standard
 * 20-094, version 1.0.0): what Apple Maps and other indoor maps take from a venue.
 *
 * - one venue and one building (the map), its address; a level per calibrated floor (ordinal:
 *   the floor's place in the map's list), a footprint of the first;
 * - a unit per location standing for a region whose outline the floor's drawing holds (the
 *   caller reads the outlines, server/export/svg-outlines.ts), and per level one walkway unit:
 *   the floor with the shops cut out, where everything else stands;
 * - an opening where a shop's entrance (its path point, events/path-network.ts) meets its
 *   outline, an anchor and an occupant named after each shop;
 * - an amenity per other location on a calibrated floor (information, restrooms, lifts...).
 *
 * Feature ids are UUIDs derived (v5) from the map's id and the element's, so exporting the same
 * map twice gives the same ids and Apple sees updates, not new features. Pure: the caller gives
 * the drawings' outlines and the time of the export.
 */
import { v5 as uuidv5 } from 'uuid';
import { floorToGeo } from './geo-calibration.js';
import type { Layer, Location, MapDocument, Point } from './map-document.js';
import { imdfRefusal } from './imdf-readiness.js';

/** The namespace of every id an export makes (a fixed UUID, so ids stay the same over exports). */
const NAMESPACE = '7d0a3c52-3f4e-4b8e-9a51-6a1f0c2d9e83';

type Position = [number, number];
type Ring = Position[];
interface PointGeometry {
  type: 'Point';
  coordinates: Position;
}
type Geometry = PointGeometry | { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] } | { type: 'LineString'; coordinates: Position[] };

export interface ImdfFeature {
  type: 'Feature';
  id: string;
  feature_type: string;
  geometry: Geometry | null;
  properties: Record<string, unknown>;
}

export interface ImdfFeatureCollection {
  type: 'FeatureCollection';
  features: ImdfFeature[];
}

export interface ImdfManifest {
  version: '1.0.0';
  created: string;
  generated_by: string;
  language: string;
  extensions: null;
}

/** The archive's files (each at the root of the zip), by name. */
export type ImdfFiles = { 'manifest.json': ImdfManifest } & Record<`${ImdfFeatureType}.geojson`, ImdfFeatureCollection>;

export const IMDF_FEATURE_TYPES = ['address', 'venue', 'building', 'footprint', 'level', 'unit', 'opening', 'amenity', 'anchor', 'occupant'] as const;
export type ImdfFeatureType = (typeof IMDF_FEATURE_TYPES)[number];

export interface ImdfInput {
  mapId: string;
  title: string;
  /** When the archive is made (ISO 8601), the manifest's `created`. */
  created: string;
  /** Region outlines by floor id, then by element id, in the floor's units. */
  outlines: ReadonlyMap<string, ReadonlyMap<string, Point[][]>>;
}

export type ImdfResult = { ok: true; files: ImdfFiles } | { ok: false; message: string };

/** Up to 7 decimals (about a centimetre), as the GeoJSON export writes them. */
const degrees = (value: number) => Math.round(value * 1e7) / 1e7;

/** Twice the signed area of a ring (positive: counter-clockwise with y up, as longitude/latitude are). */
const signedArea = (ring: Ring) => ring.reduce((sum, [x, y], i) => {
  const [nx, ny] = ring[(i + 1) % ring.length]!;
  return sum + x * ny - nx * y;
}, 0);

/** A GeoJSON linear ring: closed, consecutive repeats dropped, wound as RFC 7946 asks (outer counter-clockwise, holes clockwise). */
function linearRing(points: Ring, outer: boolean): Ring | null {
  const open = points.filter((p, i) => i === 0 || p[0] !== points[i - 1]![0] || p[1] !== points[i - 1]![1]);
  while (open.length > 1 && open[0]![0] === open[open.length - 1]![0] && open[0]![1] === open[open.length - 1]![1]) open.pop();
  if (open.length < 3) return null;
  const area = signedArea(open);
  if (area === 0) return null;
  const wound = (area > 0) === outer ? open : [...open].reverse();
  return [...wound, wound[0]!];
}

/** Whether a point lies inside a ring (floor units, even-odd rule). */
function inside(point: Point, ring: Point[]): boolean {
  let result = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i, i += 1) {
    const a = ring[i]!;
    const b = ring[j]!;
    if (a.y > point.y !== b.y > point.y && point.x < ((b.x - a.x) * (point.y - a.y)) / (b.y - a.y) + a.x) result = !result;
  }
  return result;
}

/** A region's outer rings: a ring inside another (a shop's label inside its outline) adds nothing. */
function outerRings(rings: Point[][]): Point[][] {
  return rings.filter((ring, i) => !rings.some((other, j) => j !== i && other.length >= 3 && ring.every((p) => inside(p, other))));
}

const centroid = (ring: Point[]): Point => ({ x: ring.reduce((s, p) => s + p.x, 0) / ring.length, y: ring.reduce((s, p) => s + p.y, 0) / ring.length });

/** The nearest point to `p` on a ring's edges, with that edge's ends. */
function nearestOnRing(p: Point, ring: Point[]): { at: Point; a: Point; b: Point; distance: number } {
  let best = { at: ring[0]!, a: ring[0]!, b: ring[1 % ring.length]!, distance: Infinity };
  ring.forEach((a, i) => {
    const b = ring[(i + 1) % ring.length]!;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const length2 = dx * dx + dy * dy;
    const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2));
    const at = { x: a.x + t * dx, y: a.y + t * dy };
    const distance = Math.hypot(p.x - at.x, p.y - at.y);
    if (distance < best.distance) best = { at, a, b, distance };
  });
  return best;
}

/** OSM opening hours (IMDF's HOURS) from the common ways maps write them ("Mon–Sat 9:00–21:00, Sun 10:00–18:00", "Daily 8:00–20:00"); null for anything else. */
export function osmOpeningHours(text: string): string | null {
  const days: Record<string, string> = { mon: 'Mo', tue: 'Tu', wed: 'We', thu: 'Th', fri: 'Fr', sat: 'Sa', sun: 'Su' };
  const parts = text.split(/[,;]/).map((part) => part.trim()).filter(Boolean);
  if (parts.length === 0) return null;
  const rules: string[] = [];
  for (const part of parts) {
    const match = /^(daily|every day|mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?(?:\s*[–-]\s*(mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?)?\s+(\d{1,2})[:.](\d{2})\s*[–-]\s*(\d{1,2})[:.](\d{2})$/i.exec(part);
    if (!match) return null;
    const [, from, to, h1, m1, h2, m2] = match;
    const first = from!.toLowerCase();
    const range = first === 'daily' || first === 'every day' ? 'Mo-Su' : `${days[first]!}${to ? `-${days[to.toLowerCase()]!}` : ''}`;
    const time = (h: string, m: string) => `${h.padStart(2, '0')}:${m}`;
    if (Number(h1) > 24 || Number(h2) > 24) return null;
    rules.push(`${range} ${time(h1!, m1!)}-${time(h2!, m2!)}`);
  }
  return rules.join('; ');
}

/** A phone number in E.164 (IMDF's PHONE), or null when it is not one. */
export function e164(phone: string): string | null {
  const compact = phone.replace(/[\s().-]/g, '');
  return /^\+[1-9]\d{6,14}$/.test(compact) ? compact : null;
}

/** IMDF amenity categories for the services maps show, by words in their titles. */
const AMENITY_WORDS: Array<[RegExp, string]> = [
  [/information|info desk|guest services|concierge/i, 'information'],
  [/restroom|toilet|\bwc\b|washroom/i, 'restroom'],
  [/\batm\b|cash machine|cashpoint/i, 'atm'],
  [/\blifts?\b|elevator/i, 'elevator'],
  [/escalator/i, 'escalator'],
  [/stair/i, 'stairs'],
  [/entrance|\bentry\b/i, 'entry'],
  [/seating|food court/i, 'seating'],
  [/parking|car park/i, 'parking'],
  [/first aid/i, 'firstaid'],
  [/lost and found/i, 'lostandfound'],
];

/** IMDF occupant categories (OGC 20-094's taxonomy) for the kinds of shops maps hold, by words in their title, groups and summary. */
const OCCUPANT_WORDS: Array<[RegExp, string]> = [
  [/sushi/i, 'japanese.sushi'],
  [/pizza|napoli|pizzeria/i, 'pizza'],
  [/taco|burrito|mexican/i, 'tacos'],
  [/caf[eé]|coffee|espresso|grind/i, 'coffee'],
  [/cinema|movie|imax/i, 'theater.movie'],
  [/pharmacy|chemist|prescription/i, 'pharmacy'],
  [/florist|flower|bouquet/i, 'florist'],
  [/book/i, 'books'],
  [/shoe/i, 'shoes'],
  [/\btoys?\b|kids/i, 'toys'],
  [/\bspa\b|beauty|nails|facial/i, 'dayspa'],
  [/\bgym\b|fitness/i, 'gym'],
  [/optic|eye test|glasses/i, 'optometry'],
  [/\bbank/i, 'bank'],
  [/arcade|console|games/i, 'arcade'],
  [/homeware|furniture|home &/i, 'furniture'],
  [/phone|laptop|computer/i, 'computersandaccessories'],
  [/repair/i, 'electronicsrepair'],
  [/market|grocery|supermarket|produce/i, 'grocery'],
  [/restaurant|food|dining|ramen|bistro/i, 'restaurant'],
  [/electronic|tech/i, 'computersandaccessories'],
  [/fashion|cloth|wear|outfit|denim|apparel/i, 'clothing'],
];

/** The category the first of `texts` names (a title before its summary, a summary before its groups), or `fallback`. */
const categoryOf = (words: Array<[RegExp, string]>, texts: string[], fallback: string) => {
  for (const text of texts) {
    const found = words.find(([pattern]) => pattern.test(text));
    if (found) return found[1];
  }
  return fallback;
};

/** A floor's short name for a level (IMDF's `short_name`): `G` for a ground floor, else the number in its name, else its first letters. */
function shortName(name: string): string {
  if (/ground/i.test(name)) return 'G';
  const number = /-?\d+/.exec(name);
  return number ? number[0] : name.trim().slice(0, 3);
}

/** The IMDF archive of a map, or why it cannot be made (events/imdf-readiness.ts says what is missing). */
export function exportImdf(document: MapDocument, input: ImdfInput): ImdfResult {
  const refusal = imdfRefusal(document);
  if (refusal) return { ok: false, message: refusal };
  const address = document.settings.address!;
  const language = document.settings.language === 'auto' ? 'en' : document.settings.language;
  const labels = (text: string) => ({ [language]: text });
  const id = (kind: string, key: string) => uuidv5(`${input.mapId}/${kind}/${key}`, NAMESPACE);
  const feature = (featureType: ImdfFeatureType, key: string, geometry: Geometry | null, properties: Record<string, unknown>): ImdfFeature => ({
    type: 'Feature',
    id: id(featureType, key),
    feature_type: featureType,
    geometry,
    properties,
  });
  const groupName = new Map(document.groups.map((g) => [g.id, g.name]));
  const features: Record<ImdfFeatureType, ImdfFeature[]> = { address: [], venue: [], building: [], footprint: [], level: [], unit: [], opening: [], amenity: [], anchor: [], occupant: [] };

  const addressId = id('address', 'venue');
  const buildingId = id('building', 'main');
  features.address.push(
    feature('address', 'venue', null, {
      address: address.address,
      unit: null,
      locality: address.locality,
      province: address.province,
      country: address.country,
      postal_code: address.postalCode,
      postal_code_ext: null,
      postal_code_vanity: null,
    }),
  );

  const nodes = new Map(document.paths.nodes.map((node) => [node.id, node]));
  /** Every corner of every level, for the venue's extent. */
  const extent: Position[] = [];
  let footprint: Ring[] | null = null;

  document.layers.forEach((layer: Layer, ordinal) => {
    const geo = layer.geo;
    if (!geo) return;
    const size = { width: layer.file?.width ?? document.settings.size.width, height: layer.file?.height ?? document.settings.size.height };
    const place = (p: Point): Position | null => {
      const at = floorToGeo(geo, size, p);
      return at ? [degrees(at.lng), degrees(at.lat)] : null;
    };
    const ring = (points: Point[], outer: boolean): Ring | null => {
      const placed = points.map(place);
      return placed.every((p): p is Position => p !== null) ? linearRing(placed, outer) : null;
    };
    const pointGeometry = (p: Point): PointGeometry | null => {
      const at = place(p);
      return at ? { type: 'Point', coordinates: at } : null;
    };
    const bounds = [{ x: 0, y: 0 }, { x: size.width, y: 0 }, { x: size.width, y: size.height }, { x: 0, y: size.height }];
    const levelRing = ring(bounds, true);
    if (!levelRing) return;
    extent.push(...levelRing);
    footprint ??= [levelRing];
    const levelId = id('level', layer.id);
    features.level.push(
      feature('level', layer.id, { type: 'Polygon', coordinates: [levelRing] }, {
        category: 'unspecified',
        restriction: null,
        ordinal,
        outdoor: false,
        name: labels(layer.name),
        short_name: labels(shortName(layer.name)),
        display_point: pointGeometry(centroid(bounds)),
        address_id: null,
        building_ids: [buildingId],
      }),
    );

    const outlines = input.outlines.get(layer.id) ?? new Map<string, Point[][]>();
    const locations = document.locations.filter((l) => l.layer === layer.id);
    /** Shops: locations whose region has an outline inside the floor. */
    const shops: Array<{ location: Location; rings: Point[][]; unitId: string }> = [];
    const others: Location[] = [];
    const within = (p: Point) => p.x >= 0 && p.y >= 0 && p.x <= size.width && p.y <= size.height;
    for (const location of locations) {
      const rings = location.element ? outerRings(outlines.get(location.element) ?? []).filter((r) => r.every(within)) : [];
      if (rings.length > 0) shops.push({ location, rings, unitId: id('unit', `${layer.id}/${location.id}`) });
      else others.push(location);
    }

    // The walkway: the floor with every shop cut out, where corridors and services are.
    const walkwayId = id('unit', `${layer.id}/walkway`);
    const holes = shops.flatMap((shop) => shop.rings.map((r) => ring(r, false))).filter((r): r is Ring => r !== null);
    features.unit.push(
      feature('unit', `${layer.id}/walkway`, { type: 'Polygon', coordinates: [levelRing, ...holes] }, {
        category: 'walkway',
        restriction: null,
        accessibility: null,
        name: null,
        alt_name: null,
        display_point: null,
        level_id: levelId,
      }),
    );

    for (const { location, rings, unitId } of shops) {
      const polygons = rings.map((r) => ring(r, true)).filter((r): r is Ring => r !== null);
      if (polygons.length === 0) continue;
      const displayAt = location.position && rings.some((r) => inside(location.position!, r)) ? location.position : centroid(rings[0]!);
      const display = pointGeometry(displayAt);
      const unitKey = `${layer.id}/${location.id}`;
      features.unit.push(
        feature('unit', unitKey, polygons.length === 1 ? { type: 'Polygon', coordinates: [polygons[0]!] } : { type: 'MultiPolygon', coordinates: polygons.map((p) => [p]) }, {
          category: 'room',
          restriction: null,
          accessibility: null,
          name: labels(location.title),
          alt_name: null,
          display_point: display,
          level_id: levelId,
        }),
      );
      if (display) {
        features.anchor.push(feature('anchor', unitKey, display, { address_id: null, unit_id: unitId }));
        const texts = [location.title, location.about, location.groups.map((g) => groupName.get(g) ?? '').join(' ')];
        features.occupant.push(
          feature('occupant', unitKey, null, {
            name: labels(location.title),
            category: categoryOf(OCCUPANT_WORDS, texts, 'shopping'),
            anchor_id: id('anchor', unitKey),
            hours: osmOpeningHours(location.hours),
            phone: e164(location.phone),
            website: location.link && /^https?:\/\//i.test(location.link) ? location.link : null,
            validity: null,
            correlation_id: null,
          }),
        );
      }
      // A door where each entrance meets the outline: a short line along that edge.
      const doorHalf = Math.max(size.width, size.height) / 100;
      location.entrances.forEach((entrance) => {
        const node = nodes.get(entrance);
        if (!node || node.layer !== layer.id) return;
        const nearest = rings.map((r) => nearestOnRing(node, r)).sort((a, b) => a.distance - b.distance)[0]!;
        const edge = Math.hypot(nearest.b.x - nearest.a.x, nearest.b.y - nearest.a.y);
        if (edge === 0) return;
        const half = Math.min(doorHalf, edge / 2);
        const ux = (nearest.b.x - nearest.a.x) / edge;
        const uy = (nearest.b.y - nearest.a.y) / edge;
        // Kept on the edge: a door near a corner slides along it rather than past the corner.
        const along = Math.max(half, Math.min(edge - half, Math.hypot(nearest.at.x - nearest.a.x, nearest.at.y - nearest.a.y)));
        const centre = { x: nearest.a.x + ux * along, y: nearest.a.y + uy * along };
        const ends = [place({ x: centre.x - ux * half, y: centre.y - uy * half }), place({ x: centre.x + ux * half, y: centre.y + uy * half })];
        if (!ends[0] || !ends[1] || (ends[0][0] === ends[1][0] && ends[0][1] === ends[1][1])) return;
        features.opening.push(
          feature('opening', `${unitKey}/${entrance}`, { type: 'LineString', coordinates: [ends[0], ends[1]] }, {
            category: 'pedestrian',
            accessibility: null,
            access_control: null,
            door: null,
            name: null,
            alt_name: null,
            display_point: null,
            level_id: levelId,
          }),
        );
      });
    }

    for (const location of others) {
      if (!location.position) continue;
      const at = pointGeometry(location.position);
      if (!at) continue;
      const unit = shops.find((shop) => shop.rings.some((r) => inside(location.position!, r)));
      features.amenity.push(
        feature('amenity', `${layer.id}/${location.id}`, at, {
          category: categoryOf(AMENITY_WORDS, [location.title], 'unspecified'),
          accessibility: null,
          name: labels(location.title),
          alt_name: null,
          hours: osmOpeningHours(location.hours),
          phone: e164(location.phone),
          website: location.link && /^https?:\/\//i.test(location.link) ? location.link : null,
          unit_ids: [unit ? unit.unitId : walkwayId],
          address_id: null,
          correlation_id: null,
        }),
      );
    }
  });

  if (extent.length === 0 || !footprint) return { ok: false, message: 'This map cannot be exported as IMDF yet: no floor’s calibration places its drawing on the globe.' };
  const lngs = extent.map((p) => p[0]);
  const lats = extent.map((p) => p[1]);
  // About a metre beyond the floors: Apple's validator wants the venue to enclose its footprint strictly.
  const pad = 1e-5;
  const [west, east, south, north] = [Math.min(...lngs) - pad, Math.max(...lngs) + pad, Math.min(...lats) - pad, Math.max(...lats) + pad].map(degrees) as [number, number, number, number];
  const venueRing = linearRing([[west, south], [east, south], [east, north], [west, north]], true)!;
  const display: PointGeometry = { type: 'Point', coordinates: [degrees((west + east) / 2), degrees((south + north) / 2)] };
  features.venue.push(
    feature('venue', 'main', { type: 'Polygon', coordinates: [venueRing] }, {
      category: 'shoppingcenter',
      restriction: null,
      name: labels(input.title),
      alt_name: null,
      hours: null,
      phone: null,
      website: null,
      display_point: display,
      address_id: addressId,
    }),
  );
  features.building.push(
    feature('building', 'main', null, {
      name: labels(input.title),
      alt_name: null,
      category: 'unspecified',
      restriction: null,
      display_point: display,
      address_id: addressId,
    }),
  );
  features.footprint.push(feature('footprint', 'ground', { type: 'Polygon', coordinates: footprint }, { category: 'ground', name: null, building_ids: [buildingId] }));

  const files = {
    'manifest.json': { version: '1.0.0', created: input.created, generated_by: 'Mapfold', language, extensions: null },
  } as ImdfFiles;
  for (const type of IMDF_FEATURE_TYPES) files[`${type}.geojson`] = { type: 'FeatureCollection', features: features[type] };
  return { ok: true, files };
}
