/**
 * The demo map behind /demo: Riverside Mall, two floors of shops drawn as SVG regions (each
 * region a location), plus the services people look for (information, restrooms, lifts, ATM).
 * Deterministic: `npm run demo:generate` writes the floor plans to client/public/assets/demo,
 * and the seed builds the same document from this file.
 */
import { emptyMapDocument, MapDocument, type MapDocument as Document } from '../../events/map-document.js';
import { demoMallNetwork } from './demo-mall-paths.js';

interface Shop {
  id: string;
  title: string;
  group: string;
  about: string;
  hours?: string;
  phone?: string;
  rect: [x: number, y: number, width: number, height: number];
}

interface Point {
  id: string;
  title: string;
  group: string;
  about: string;
  marker: 'pin' | 'dot' | 'circle';
  at: [x: number, y: number];
}

export interface DemoFloor {
  id: string;
  name: string;
  shops: Shop[];
  points: Point[];
}

const WIDTH = 1200;
const HEIGHT = 800;
const TOP: [number, number] = [60, 280];
const BOTTOM: [number, number] = [460, 280];

const row = (y: [number, number], spans: Array<[number, number]>) => spans.map(([x, w]) => [x, y[0], w, y[1]] as Shop['rect']);
const topRow = row(TOP, [[60, 140], [210, 140], [360, 190], [650, 150], [810, 150], [970, 170]]);
const bottomRow = row(BOTTOM, [[60, 190], [260, 140], [410, 140], [650, 160], [820, 140], [970, 170]]);

export const DEMO_GROUPS = [
  { id: 'fashion', name: 'Fashion', color: '#db2777' },
  { id: 'food', name: 'Food & drink', color: '#ea580c' },
  { id: 'tech', name: 'Electronics', color: '#2563eb' },
  { id: 'health', name: 'Health & beauty', color: '#059669' },
  { id: 'leisure', name: 'Leisure', color: '#7c3aed' },
  { id: 'services', name: 'Services', color: '#475569' },
] as const;

const HOURS = 'Mon–Sat 9:00–21:00, Sun 10:00–18:00';

/**
 * Where the mall stands (a made-up address on a real river front) and how its floors lie on the
 * globe: both floors over the same 120 × 80 m (a drawing unit is 10 cm, the scale wayfinding
 * assumed before, events/wayfinding/route-costs.ts), north up, so the map exports as IMDF
 * (events/imdf-export.ts) and its shops have latitudes and longitudes.
 */
export const DEMO_ADDRESS = { address: '1200 Riverside Boulevard', locality: 'Sacramento', province: 'US-CA', country: 'US', postalCode: '95818' };
export const DEMO_CALIBRATION = { kind: 'bounds', projection: 'mercator', north: 38.577, south: 38.5762805, west: -121.505, east: -121.5036196 } as const;

export const DEMO_FLOORS: DemoFloor[] = [
  {
    id: 'ground',
    name: 'Ground floor',
    shops: [
      { id: 'g-lumiere', title: 'Lumière Café', group: 'food', about: 'Espresso, pastries and light lunches by the fountain.', hours: 'Daily 8:00–20:00', phone: '+1 555 0101', rect: topRow[0]! },
      { id: 'g-northwind', title: 'Northwind Outfitters', group: 'fashion', about: 'Outdoor clothing, boots and camping gear.', hours: HOURS, rect: topRow[1]! },
      { id: 'g-pixel', title: 'Pixel & Plug', group: 'tech', about: 'Phones, laptops, accessories and repairs while you shop.', hours: HOURS, phone: '+1 555 0103', rect: topRow[2]! },
      { id: 'g-greenbasket', title: 'Green Basket Market', group: 'food', about: 'Fresh produce, bakery and a deli counter.', hours: 'Daily 7:00–22:00', rect: topRow[3]! },
      { id: 'g-pageturner', title: 'Page Turner Books', group: 'leisure', about: 'New releases, children’s corner and reading events.', hours: HOURS, rect: topRow[4]! },
      { id: 'g-bella', title: 'Bella Shoes', group: 'fashion', about: 'Shoes and bags for every occasion.', hours: HOURS, rect: topRow[5]! },
      { id: 'g-urbanthread', title: 'Urban Thread', group: 'fashion', about: 'Streetwear and denim for women and men.', hours: HOURS, rect: bottomRow[0]! },
      { id: 'g-sunrise', title: 'Sunrise Pharmacy', group: 'health', about: 'Prescriptions, health advice and skincare.', hours: 'Mon–Sat 8:00–21:00', phone: '+1 555 0108', rect: bottomRow[1]! },
      { id: 'g-techrepair', title: 'Tech Repair Hub', group: 'tech', about: 'Screen and battery repairs in under an hour.', hours: HOURS, rect: bottomRow[2]! },
      { id: 'g-blossom', title: 'Blossom Florist', group: 'leisure', about: 'Fresh bouquets, plants and same-day delivery.', hours: HOURS, rect: bottomRow[3]! },
      { id: 'g-dailygrind', title: 'The Daily Grind', group: 'food', about: 'Specialty coffee roasted on site.', hours: 'Daily 7:30–19:00', rect: bottomRow[4]! },
      { id: 'g-kidskingdom', title: 'Kids Kingdom', group: 'leisure', about: 'Toys, games and a supervised play area.', hours: HOURS, rect: bottomRow[5]! },
    ],
    points: [
      { id: 'g-info', title: 'Information desk', group: 'services', about: 'Maps, gift cards, lost and found.', marker: 'pin', at: [600, 400] },
      { id: 'g-entrance', title: 'Main entrance', group: 'services', about: 'Taxi rank and bus stop outside.', marker: 'pin', at: [600, 770] },
      { id: 'g-restrooms', title: 'Restrooms (ground floor)', group: 'services', about: 'Accessible restrooms and baby changing.', marker: 'dot', at: [1120, 400] },
      { id: 'g-atm', title: 'ATM', group: 'services', about: 'Cash machine, open around the clock.', marker: 'dot', at: [80, 400] },
      { id: 'g-lifts', title: 'Lifts (ground floor)', group: 'services', about: 'Step-free access to Level 1.', marker: 'circle', at: [700, 400] },
    ],
  },
  {
    id: 'level-1',
    name: 'Level 1',
    shops: [
      { id: 'l1-cinema', title: 'Cinema Royale', group: 'leisure', about: 'Eight screens, IMAX and premium recliners.', hours: 'Daily 11:00–23:30', phone: '+1 555 0201', rect: [60, 60, 490, 280] },
      { id: 'l1-sakura', title: 'Sakura Sushi', group: 'food', about: 'Sushi, ramen and bento boxes.', hours: 'Daily 11:30–22:00', rect: topRow[3]! },
      { id: 'l1-napoli', title: 'Bella Napoli', group: 'food', about: 'Wood-fired pizza and fresh pasta.', hours: 'Daily 11:30–22:00', rect: topRow[4]! },
      { id: 'l1-tacoloco', title: 'Taco Loco', group: 'food', about: 'Tacos, burritos and fresh salsas.', hours: 'Daily 11:30–22:00', rect: topRow[5]! },
      { id: 'l1-glow', title: 'Glow Beauty Spa', group: 'health', about: 'Facials, nails and massage by appointment.', hours: HOURS, phone: '+1 555 0205', rect: bottomRow[0]! },
      { id: 'l1-fitzone', title: 'FitZone Gym', group: 'health', about: 'Gym, classes and personal training.', hours: 'Daily 6:00–22:00', rect: bottomRow[1]! },
      { id: 'l1-opticare', title: 'Opticare', group: 'health', about: 'Eye tests, glasses and contact lenses.', hours: HOURS, rect: bottomRow[2]! },
      { id: 'l1-harbor', title: 'Harbor Bank', group: 'services', about: 'Personal banking and advice.', hours: 'Mon–Fri 9:00–17:00', rect: bottomRow[3]! },
      { id: 'l1-gamegalaxy', title: 'Game Galaxy', group: 'tech', about: 'Consoles, games and VR arcade.', hours: HOURS, rect: bottomRow[4]! },
      { id: 'l1-homehearth', title: 'Home & Hearth', group: 'leisure', about: 'Homeware, kitchen and décor.', hours: HOURS, rect: bottomRow[5]! },
    ],
    points: [
      { id: 'l1-foodcourt', title: 'Food court seating', group: 'food', about: 'Seating for 300 with a play corner.', marker: 'pin', at: [880, 400] },
      { id: 'l1-restrooms', title: 'Restrooms (Level 1)', group: 'services', about: 'Accessible restrooms and baby changing.', marker: 'dot', at: [1120, 400] },
      { id: 'l1-lifts', title: 'Lifts (Level 1)', group: 'services', about: 'Step-free access to the ground floor.', marker: 'circle', at: [700, 400] },
    ],
  },
];

const color = (group: string) => DEMO_GROUPS.find((g) => g.id === group)!.color;

/** A floor's plan as SVG: walls, corridors and one `<rect id>` region per shop. */
export function floorPlanSvg(floor: DemoFloor): string {
  const shops = floor.shops
    .map(({ id, rect: [x, y, w, h] }) => `  <rect id="${id}" x="${x}" y="${y}" width="${w}" height="${h}" rx="10" fill="#e2e8f0" stroke="#94a3b8" stroke-width="2"/>`)
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}">
  <title>Riverside Mall, ${floor.name}</title>
  <rect x="40" y="40" width="${WIDTH - 80}" height="${HEIGHT - 80}" rx="24" fill="#f8fafc" stroke="#64748b" stroke-width="4"/>
  <rect x="40" y="350" width="${WIDTH - 80}" height="100" fill="#f1f5f9"/>
  <rect x="560" y="40" width="80" height="${HEIGHT - 80}" fill="#f1f5f9"/>
  <circle cx="600" cy="400" r="44" fill="#dbeafe" stroke="#93c5fd" stroke-width="2"/>
${shops}
</svg>
`;
}

/** The demo map's document: its floors, locations and path network (demo-mall-paths.ts). */
export function demoMallDocument(): Document {
  const base = emptyMapDocument();
  const network = demoMallNetwork(DEMO_FLOORS);
  return MapDocument.parse({
    ...base,
    settings: {
      ...base.settings,
      size: { width: WIDTH, height: HEIGHT },
      maxZoom: 6,
      defaultLayer: 'ground',
      features: { ...base.settings.features, minimap: true },
      address: DEMO_ADDRESS,
    },
    layers: DEMO_FLOORS.map((floor) => ({
      id: floor.id,
      name: floor.name,
      geo: DEMO_CALIBRATION,
      file: { kind: 'svg', url: `/assets/demo/riverside-${floor.id}.svg`, width: WIDTH, height: HEIGHT },
    })),
    groups: DEMO_GROUPS.map((g) => ({ ...g, legend: true })),
    locations: DEMO_FLOORS.flatMap((floor) => [
      ...floor.shops.map((shop) => {
        const [x, y, w, h] = shop.rect;
        return {
          id: shop.id,
          title: shop.title,
          about: shop.about,
          description: `<p>Find us on the ${floor.name.toLowerCase()} of Riverside Mall.</p>`,
          layer: floor.id,
          element: shop.id,
          position: { x: x + w / 2, y: y + h / 2 },
          marker: 'label',
          label: shop.title,
          color: color(shop.group),
          groups: [shop.group],
          hours: shop.hours ?? '',
          phone: shop.phone ?? '',
          entrances: network.entrances[shop.id] ?? [],
        };
      }),
      ...floor.points.map((point) => ({
        id: point.id,
        title: point.title,
        about: point.about,
        layer: floor.id,
        position: { x: point.at[0], y: point.at[1] },
        marker: point.marker,
        color: color(point.group),
        groups: [point.group],
        entrances: network.entrances[point.id] ?? [],
      })),
    ]),
    paths: network.paths,
  });
}
