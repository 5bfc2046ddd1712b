/**
 * The real-estate case study's example map: Maple Grove, a residential development of
 * townhouses, detached homes and two apartment buildings. Each plot and building is a region
 * of the site plan (an SVG drawn here), each with one location carrying its status and price;
 * the groups Available / Reserved / Sold colour the plan the way a sales office would.
 * Deterministic: the same document and the same SVG bytes on every start.
 */
import { emptyMapDocument, MapDocument, type LayerFile, type MapDocument as Document } from '../../events/map-document.js';

export const REAL_ESTATE_MAP_ID = 'example-real-estate';
export const REAL_ESTATE_TITLE = 'Maple Grove site plan (example)';

const WIDTH = 1200;
const HEIGHT = 800;

export const UNIT_STATUSES = [
  { id: 'available', name: 'Available', color: '#16a34a' },
  { id: 'reserved', name: 'Reserved', color: '#d97706' },
  { id: 'sold', name: 'Sold', color: '#64748b' },
] as const;
type Status = (typeof UNIT_STATUSES)[number]['id'];

interface Unit {
  id: string;
  title: string;
  kind: string;
  bedrooms: number;
  area: number;
  price: number;
  status: Status;
  rect: [x: number, y: number, width: number, height: number];
}

/** A row of equal plots from left to right. */
function plots(prefix: string, first: number, y: number, height: number, x: number, width: number, statuses: Status[], make: (n: number) => Omit<Unit, 'id' | 'title' | 'status' | 'rect'>): Unit[] {
  return statuses.map((status, i) => {
    const n = first + i;
    return { id: `${prefix}-${n}`, title: `Plot ${n}`, status, rect: [x + i * (width + 8), y, width, height], ...make(n) };
  });
}

const townhouse = (n: number) => ({ kind: 'Townhouse', bedrooms: n % 3 === 0 ? 4 : 3, area: n % 3 === 0 ? 142 : 118, price: n % 3 === 0 ? 489_000 : 429_000 });
const detached = (n: number) => ({ kind: 'Detached home', bedrooms: 4, area: 176 + (n % 4) * 6, price: 615_000 + (n % 4) * 15_000 });

export const UNITS: Unit[] = [
  // North terrace: townhouses along Maple Avenue.
  ...plots('plot', 1, 90, 150, 90, 78, ['sold', 'sold', 'sold', 'reserved', 'sold', 'available', 'available', 'reserved'], townhouse),
  // South terrace.
  ...plots('plot', 9, 330, 150, 90, 78, ['sold', 'reserved', 'available', 'available', 'sold', 'available', 'available', 'available'], townhouse),
  // Detached homes facing the park.
  ...plots('plot', 17, 570, 160, 90, 106, ['sold', 'available', 'reserved', 'available', 'available', 'available'], detached),
  { id: 'building-a', title: 'Building A', kind: 'Apartments, 1 to 3 bedrooms', bedrooms: 2, area: 78, price: 289_000, status: 'available', rect: [860, 90, 250, 180] },
  { id: 'building-b', title: 'Building B', kind: 'Apartments, 1 to 3 bedrooms', bedrooms: 2, area: 78, price: 309_000, status: 'reserved', rect: [860, 330, 250, 150] },
];

const statusOf = (id: Status) => UNIT_STATUSES.find((s) => s.id === id)!;
const dollars = (value: number) => `$${value.toLocaleString('en-US')}`;

function describe(unit: Unit): { about: string; description: string } {
  const status = statusOf(unit.status).name;
  if (unit.id.startsWith('building-')) {
    return {
      about: `${unit.kind}, from ${dollars(unit.price)}. ${unit.status === 'available' ? 'Apartments available now.' : 'Last apartments reserved.'}`,
      description:
        `<p><strong>${status}</strong> · apartments from ${dollars(unit.price)}</p>` +
        `<p>${unit.kind}, 52 to 104 m², each with a balcony or terrace, underground parking and a storage room.</p>` +
        `<p>Completion: spring 2027. Ask the sales office for the floor plans of the remaining apartments.</p>`,
    };
  }
  return {
    about: `${unit.kind} · ${unit.bedrooms} bedrooms · ${unit.area} m² · ${status}${unit.status === 'sold' ? '' : `, ${dollars(unit.price)}`}`,
    description:
      `<p><strong>${status}</strong>${unit.status === 'sold' ? '' : ` · ${dollars(unit.price)}`}</p>` +
      `<ul><li>${unit.kind}, ${unit.bedrooms} bedrooms</li><li>${unit.area} m² of living space</li><li>Private garden and two parking spaces</li></ul>` +
      (unit.status === 'available' ? '<p>Book a viewing with the sales office to reserve this plot.</p>' : ''),
  };
}

/** The site plan: roads, the park, the sales office and one `<rect id>` region per plot and building. */
export function realEstateSitePlanSvg(): string {
  const regions = UNITS.map(({ id, rect: [x, y, w, h] }) => `  <rect id="${id}" x="${x}" y="${y}" width="${w}" height="${h}" rx="6" fill="#e2e8f0" stroke="#94a3b8" stroke-width="2"/>`).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}">
  <title>Maple Grove site plan</title>
  <rect width="${WIDTH}" height="${HEIGHT}" fill="#f1f5e9"/>
  <rect x="40" y="255" width="1120" height="60" fill="#d6d3d1"/>
  <rect x="40" y="495" width="780" height="50" fill="#d6d3d1"/>
  <rect x="800" y="40" width="45" height="720" fill="#d6d3d1"/>
  <path d="M40 285 H1160 M40 520 H820 M822 40 V760" stroke="#fafaf9" stroke-width="3" stroke-dasharray="18 14" fill="none"/>
  <rect x="860" y="520" width="250" height="200" rx="24" fill="#bbf7d0" stroke="#86efac" stroke-width="2"/>
  <circle cx="920" cy="610" r="26" fill="#86efac"/>
  <circle cx="1010" cy="665" r="30" fill="#86efac"/>
  <circle cx="1060" cy="600" r="18" fill="#86efac"/>
  <text x="985" y="552" text-anchor="middle" font-family="system-ui, sans-serif" font-size="16" fill="#166534">Grove Park</text>
  <text x="60" y="292" font-family="system-ui, sans-serif" font-size="14" fill="#57534e">Maple Avenue</text>
  <text x="60" y="526" font-family="system-ui, sans-serif" font-size="14" fill="#57534e">Orchard Lane</text>
${regions}
</svg>
`;
}

/** The document, its single layer holding the site plan stored as `file`. */
export function realEstateDocument(file: LayerFile): Document {
  const base = emptyMapDocument();
  return MapDocument.parse({
    ...base,
    settings: {
      ...base.settings,
      size: { width: WIDTH, height: HEIGHT },
      maxZoom: 6,
      defaultLayer: 'site',
      theme: { ...base.settings.theme, accent: '#15803d' },
    },
    layers: [{ id: 'site', name: 'Site plan', file }],
    groups: UNIT_STATUSES.map((s) => ({ ...s, legend: true })),
    locations: [
      ...UNITS.map((unit) => {
        const [x, y, w, h] = unit.rect;
        return {
          id: unit.id,
          title: unit.id.startsWith('building-') ? unit.title : `${unit.title} · ${unit.kind}`,
          ...describe(unit),
          layer: 'site',
          element: unit.id,
          position: { x: x + w / 2, y: y + h / 2 },
          marker: 'label',
          label: unit.id.startsWith('building-') ? unit.title : String(unit.title.replace('Plot ', '')),
          groups: [unit.status],
        };
      }),
      {
        id: 'sales-office',
        title: 'Sales office',
        about: 'Show home and sales office, open for viewings.',
        description: '<p>Visit the furnished show home and meet the sales team. Viewings by appointment or walk in.</p>',
        hours: 'Thu–Mon 10:00–17:00',
        phone: '+1 555 0140',
        layer: 'site',
        position: { x: 985, y: 760 },
        marker: 'pin',
        color: '#15803d',
      },
    ],
  });
}

export const realEstateLayerMeta = { kind: 'svg' as const, width: WIDTH, height: HEIGHT };
