/**
 * Store chains as map documents, for the clustering bench, e2e test and screenshots:
 *  - {@link storeChainFixtureDocument}: the real 25,000-store fixture (GeoNames places) on one sheet;
 *  - {@link storeChainDocument}: a made-up chain (seeded, the same every run) of any size, stores
 *    in towns of very different sizes, titles like "Northwind Market #01234 · Riverton".
 */
const TOWNS = ['Riverton', 'Ashford', 'Brookfield', 'Cedar Falls', 'Dunmore', 'Eastwick', 'Fairhaven', 'Glenwood', 'Harlow', 'Ironbridge', 'Juniper', 'Kingsport', 'Lakeside', 'Milford', 'Northgate', 'Oakridge', 'Pinecrest', 'Queensbury', 'Redmond', 'Stonehaven', 'Thornbury', 'Upton', 'Valewood', 'Westbrook', 'Yarrow', 'Zephyr Bay'];
const FORMATS = [
  { id: 'market', name: 'Market', color: '#16a34a', marker: 'pin' as const },
  { id: 'express', name: 'Express', color: '#ea580c', marker: 'circle' as const },
  { id: 'superstore', name: 'Superstore', color: '#2563eb', marker: 'pin' as const },
  { id: 'pharmacy', name: 'Pharmacy', color: '#db2777', marker: 'dot' as const },
];

function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const STORE_CHAIN_SIZE = { width: 8000, height: 5000 };

/** The title of store `i` (1-based number in it), e.g. to search for one. */
export function storeTitle(i: number, town: string): string {
  return `Northwind ${i % 7 === 0 ? 'Express' : 'Market'} #${String(i + 1).padStart(5, '0')} · ${town}`;
}

export function storeChainDocument(count: number, seed = 1234) {
  const random = seeded(seed);
  const { width, height } = STORE_CHAIN_SIZE;
  // Towns: a few big cities and many small ones (a chain's stores follow people).
  const towns = Array.from({ length: 140 }, (_, i) => ({
    name: `${TOWNS[i % TOWNS.length]}${i >= TOWNS.length ? ` ${Math.floor(i / TOWNS.length) + 1}` : ''}`,
    x: 300 + random() * (width - 600),
    y: 300 + random() * (height - 600),
    weight: 1 / (i + 1) ** 0.9,
    spread: 40 + random() * 220,
  }));
  const totalWeight = towns.reduce((sum, town) => sum + town.weight, 0);
  const pickTown = () => {
    let r = random() * totalWeight;
    for (const town of towns) if ((r -= town.weight) <= 0) return town;
    return towns[towns.length - 1]!;
  };
  const gaussian = () => Math.sqrt(-2 * Math.log(random() || 1e-9)) * Math.cos(2 * Math.PI * random());
  const locations = Array.from({ length: count }, (_, i) => {
    const town = pickTown();
    const format = FORMATS[i % 7 === 0 ? 1 : i % 11 === 0 ? 2 : i % 13 === 0 ? 3 : 0]!;
    const x = Math.min(width - 1, Math.max(1, Math.round(town.x + gaussian() * town.spread)));
    const y = Math.min(height - 1, Math.max(1, Math.round(town.y + gaussian() * town.spread)));
    return {
      id: `s${i}`,
      title: storeTitle(i, town.name),
      about: `${100 + (i % 900)} High Street, ${town.name}`,
      layer: 'stores',
      position: { x, y },
      marker: format.marker,
      groups: [format.id],
    };
  });
  return {
    version: 2,
    settings: {
      size: { width, height },
      minZoom: 1,
      maxZoom: 24,
      initialView: null,
      theme: { mode: 'light', accent: '#4f46e5', background: '#eef2f7' },
      features: { sidebar: true, search: true, filters: true, minimap: true, zoomButtons: true, fullscreen: true, deepLinks: true },
      defaultLayer: 'stores',
    },
    layers: [{ id: 'stores', name: 'Stores', file: null }],
    groups: FORMATS.map(({ id, name, color }) => ({ id, name, color, legend: true })),
    locations,
    styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
  };
}

/**
 * The real 25,000-store fixture (test/fixtures/import/csv/store-chain-25k.csv.gz: GeoNames
 * places) as a map on one sheet: longitude and latitude placed plainly (equirectangular) on an
 * 8000 × 4000 layer, a group per category. The first `count` stores (the largest places).
 */
export async function storeChainFixtureDocument(count = 25_000) {
  const { storeChainCsv } = await import('./store-chain.js');
  const { default: Papa } = await import('papaparse');
  const rows = Papa.parse<Record<string, string>>(storeChainCsv(), { header: true, skipEmptyLines: true }).data.slice(0, count);
  const width = 8000;
  const height = 4000;
  const palette = ['#4f46e5', '#16a34a', '#ea580c', '#2563eb', '#db2777', '#0891b2'];
  const categories = [...new Set(rows.map((row) => row.category ?? 'Store'))];
  const groups = categories.map((name, i) => ({ id: `c${i}`, name, color: palette[i % palette.length]!, legend: true }));
  const groupOf = new Map(categories.map((name, i) => [name, `c${i}`]));
  const locations = rows.map((row, i) => ({
    id: row.store_id ?? `s${i}`,
    title: `Northwind ${row.name}`,
    about: `${row.city}, ${row.country}`,
    layer: 'stores',
    position: { x: Math.round(((Number(row.longitude) + 180) / 360) * width), y: Math.round(((90 - Number(row.latitude)) / 180) * height) },
    marker: 'pin' as const,
    groups: [groupOf.get(row.category ?? 'Store')!],
  }));
  const document = storeChainDocument(0);
  return {
    ...document,
    settings: { ...document.settings, size: { width, height } },
    groups,
    locations,
  };
}
