/**
 * Reading the embedded basemap in tests: the tile that holds a place, an archive read from a
 * file through the `pmtiles` package, and a tile's features by layer.
 */
import { readFileSync } from 'node:fs';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles, type Source } from 'pmtiles';

/** The web-mercator tile [z, x, y] holding a longitude and latitude. */
export function tileAt(lon: number, lat: number, z: number): [number, number, number] {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  const x = Math.floor(((lon + 180) / 360) * n);
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return [z, x, y];
}

/** An archive on disk (or in memory), read as a browser reads one over HTTP: by byte ranges. */
export function readArchive(bytes: Uint8Array | string): PMTiles {
  const data = typeof bytes === 'string' ? readFileSync(bytes) : bytes;
  const source: Source = {
    getKey: () => 'archive',
    getBytes: async (offset, length) => ({ data: data.buffer.slice(data.byteOffset + offset, data.byteOffset + offset + length) as ArrayBuffer }),
  };
  return new PMTiles(source);
}

export interface DecodedFeature {
  type: number;
  properties: Record<string, string | number | boolean>;
}

/** A tile's features by layer name (empty when the archive has no such tile). */
export async function featuresAt(archive: PMTiles, [z, x, y]: [number, number, number]): Promise<Record<string, DecodedFeature[]>> {
  const tile = await archive.getZxy(z, x, y);
  if (!tile) return {};
  const layers = new VectorTile(new PbfReader(new Uint8Array(tile.data))).layers;
  return Object.fromEntries(
    Object.entries(layers).map(([name, layer]) => [
      name,
      Array.from({ length: layer.length }, (_, i) => {
        const feature = layer.feature(i);
        return { type: feature.type, properties: feature.properties };
      }),
    ]),
  );
}
