/**
 * The embedded basemap archive (basemap/world.pmtiles, scripts/build-basemap.ts) and its PMTiles
 * writer (scripts/basemap/pmtiles-writer.ts), read back with the `pmtiles` package: what is at a
 * few known places, in the Protomaps schema's layers and fields; that the committed archive is
 * the one its sources make now; and the writer's directories, deduplication and leaves.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { basemapInputsHash, BASEMAP_FILE, BASEMAP_SIDECAR } from '../../scripts/build-basemap.js';
import { localityMinZoom, populationRank } from '../../scripts/basemap/basemap-data.js';
import { HEADER_BYTES, ROOT_LIMIT, writePmtiles, type ArchiveTile } from '../../scripts/basemap/pmtiles-writer.js';
import { featuresAt, readArchive, tileAt } from '../support/basemap-tiles.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const archive = readArchive(path.join(REPO, BASEMAP_FILE));

/** The names of a tile's places of a kind. */
async function placeNames(lon: number, lat: number, z: number, kind: string): Promise<string[]> {
  const layers = await featuresAt(archive, tileAt(lon, lat, z));
  return (layers.places ?? []).filter((place) => place.properties.kind === kind).map((place) => String(place.properties.name));
}

describe('the embedded world basemap', () => {
  it('is a PMTiles v3 archive of gzipped vector tiles, zoom 0 to 8, describing its layers and sources', async () => {
    const header = await archive.getHeader();
    expect(header.specVersion).toBe(3);
    expect([header.minZoom, header.maxZoom]).toEqual([0, 8]);
    expect(header.tileType).toBe(1);
    expect(header.tileCompression).toBe(2);
    expect(header.clustered).toBe(true);
    const metadata = (await archive.getMetadata()) as { vector_layers: { id: string }[]; attribution: string };
    expect(metadata.vector_layers.map((layer) => layer.id)).toEqual(['earth', 'boundaries', 'places']);
    expect(metadata.attribution).toContain('Natural Earth');
  });

  it('has the world tile: land, borders and the biggest countries named in the viewers’ languages', async () => {
    const layers = await featuresAt(archive, [0, 0, 0]);
    expect(layers.earth!.length).toBeGreaterThan(0);
    expect(layers.earth!.every((feature) => feature.type === 3 && feature.properties.kind === 'earth')).toBe(true);
    expect(layers.boundaries!.some((feature) => feature.type === 2 && feature.properties.kind === 'country' && feature.properties.kind_detail === 2)).toBe(true);
    const france = (await featuresAt(archive, [2, 2, 1])).places!.find((place) => place.properties.iso_a2 === 'FR')!;
    expect(france.properties).toMatchObject({ kind: 'country', name: 'France', 'name:en': 'France', 'name:de': 'Frankreich', 'name:ja': 'フランス', 'name:ar': 'فرنسا' });
  });

  it('places the big cities from their first zooms, with population and rank', async () => {
    for (const [name, lon, lat] of [['Paris', 2.3522, 48.8566], ['New York City', -74.006, 40.7128], ['Tokyo', 139.6917, 35.6895], ['Sydney', 151.2093, -33.8688]] as const) {
      expect(await placeNames(lon, lat, 4, 'locality'), name).toContain(name);
      expect(await placeNames(lon, lat, 8, 'locality'), name).toContain(name);
      expect(await placeNames(lon, lat, 2, 'locality'), name).not.toContain(name);
    }
    const tokyo = (await featuresAt(archive, tileAt(139.6917, 35.6895, 6))).places!.find((place) => place.properties.name === 'Tokyo')!;
    expect(tokyo.properties).toMatchObject({ kind: 'locality', capital: 'yes', population_rank: 13, min_zoom: 3 });
  });

  it('has towns of 5,000 people at zoom 8 (the store locator’s neighbourhood), on land', async () => {
    // Versailles (85,000) and Saint-Germain-en-Laye (40,000) beside Paris; Hoboken beside New York.
    expect(await placeNames(2.1301, 48.8014, 8, 'locality')).toEqual(expect.arrayContaining(['Versailles', 'Saint-Germain-en-Laye']));
    expect(await placeNames(-74.0324, 40.744, 8, 'locality')).toContain('Hoboken');
    for (const [lon, lat] of [[2.3522, 48.8566], [-74.006, 40.7128], [139.6917, 35.6895], [151.2093, -33.8688]] as const) {
      expect((await featuresAt(archive, tileAt(lon, lat, 8))).earth?.length).toBeGreaterThan(0);
    }
  });

  it('draws US states and their counties: New York and New Jersey labelled, state lines from zoom 3, county lines from zoom 6', async () => {
    expect(await placeNames(-75.5, 42.9, 4, 'region')).toEqual(expect.arrayContaining(['New York', 'Pennsylvania']));
    const kinds = async (z: number) => new Set((await featuresAt(archive, tileAt(-74.5, 40.7, z))).boundaries?.map((line) => line.properties.kind));
    expect(await kinds(2)).not.toContain('region');
    expect(await kinds(4)).toContain('region');
    expect(await kinds(5)).not.toContain('county');
    expect(await kinds(7)).toContain('county');
  });

  it('draws land that crosses the antimeridian once, in place (Chukotka, Fiji), and labels Russia on its mainland', async () => {
    // TopoJSON joins what Natural Earth cut at 180°: unjumped, no ring spans the world's width.
    expect(await archive.getZxy(...tileAt(2.8, 67.5, 6))).toBeUndefined();
    expect(await archive.getZxy(...tileAt(-20, -17, 5))).toBeUndefined();
    expect((await featuresAt(archive, tileAt(-175, 66, 5))).earth?.length).toBeGreaterThan(0);
    expect((await featuresAt(archive, tileAt(178.4, -17.8, 6))).earth?.length).toBeGreaterThan(0);
    const russia = (await featuresAt(archive, tileAt(90, 60, 1))).places?.find((place) => place.properties.iso_a2 === 'RU');
    expect(russia?.properties.name).toBe('Russia');
  });

  it('has no tiles in the open ocean (the style’s background is the water)', async () => {
    expect(await archive.getZxy(...tileAt(-30, 30, 6))).toBeUndefined();
  });

  it('is the archive its sources and scripts make now (npm run build rebuilds it otherwise)', () => {
    const sidecar = JSON.parse(readFileSync(path.join(REPO, BASEMAP_SIDECAR), 'utf8')) as { inputs: string; bytes: number };
    expect(sidecar.inputs).toBe(basemapInputsHash(REPO));
    expect(readFileSync(path.join(REPO, BASEMAP_FILE)).length).toBe(sidecar.bytes);
  });

  it('ranks populations as Protomaps does, and brings in bigger towns and capitals sooner', () => {
    expect([populationRank(0), populationRank(5001), populationRank(2_138_551), populationRank(8_336_599), populationRank(2e7 + 1)]).toEqual([0, 5, 12, 13, 15]);
    expect([localityMinZoom(8e6, false), localityMinZoom(150_000, false), localityMinZoom(6000, false), localityMinZoom(6000, true)]).toEqual([3, 6, 8, 5]);
  });
});

describe('the PMTiles writer', () => {
  const options = { minZoom: 0, maxZoom: 12, bounds: [-180, -85, 180, 85] as [number, number, number, number], center: [0, 0, 0] as [number, number, number], metadata: { name: 'test', vector_layers: [] } };
  const bytes = (text: string) => new TextEncoder().encode(text);
  const text = (data: ArrayBuffer) => new TextDecoder().decode(data);

  it('writes tiles that read back by z/x/y, stores repeated content once and runs of it as one entry', async () => {
    const tiles: ArchiveTile[] = [
      { z: 0, x: 0, y: 0, data: bytes('world') },
      { z: 1, x: 0, y: 0, data: bytes('sea') },
      { z: 1, x: 0, y: 1, data: bytes('sea') },
      { z: 1, x: 1, y: 1, data: bytes('sea') },
      { z: 1, x: 1, y: 0, data: bytes('land') },
      { z: 2, x: 3, y: 1, data: bytes('sea') },
    ];
    const written = writePmtiles(tiles, options);
    const reader = readArchive(written);
    for (const tile of tiles) expect(text((await reader.getZxy(tile.z, tile.x, tile.y))!.data)).toBe(new TextDecoder().decode(tile.data));
    expect(await reader.getZxy(2, 0, 0)).toBeUndefined();
    const header = await reader.getHeader();
    expect(header.numAddressedTiles).toBe(6);
    expect(header.numTileContents).toBe(3);
    // z1's tile ids run 1 (0,0), 2 (0,1), 3 (1,1), 4 (1,0): the three seas are one entry.
    expect(header.numTileEntries).toBe(4);
    expect(await reader.getMetadata()).toEqual({ name: 'test', vector_layers: [] });
  });

  it('moves entries to leaf directories when the root would not fit in the first 16 KB', async () => {
    // 30,000 tiles of different lengths at scattered ids: a root of them all is far over 16 KB.
    const tiles: ArchiveTile[] = [];
    const taken = new Set<number>();
    let seed = 42;
    // Park–Miller: products stay below 2^53, so the sequence is exact in doubles.
    const next = () => (seed = (seed * 48_271) % 2_147_483_647);
    while (tiles.length < 30_000) {
      const [x, y] = [next() % 4096, next() % 4096];
      if (taken.has(x * 4096 + y)) continue;
      taken.add(x * 4096 + y);
      tiles.push({ z: 12, x, y, data: bytes(`tile ${tiles.length} ${'.'.repeat(next() % 300)}`) });
    }
    const written = writePmtiles(tiles, options);
    const reader = readArchive(written);
    const header = await reader.getHeader();
    expect(header.leafDirectoryLength).toBeGreaterThan(0);
    expect(HEADER_BYTES + header.rootDirectoryLength).toBeLessThanOrEqual(ROOT_LIMIT);
    for (const i of [0, 1, 4095, 4096, 17_777, 29_999]) {
      const tile = tiles[i]!;
      expect(text((await reader.getZxy(tile.z, tile.x, tile.y))!.data)).toBe(new TextDecoder().decode(tile.data));
    }
  });
});
