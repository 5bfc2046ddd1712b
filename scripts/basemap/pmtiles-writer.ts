/**
 * A PMTiles v3 writer (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md).
 *
 * Written here because the npm registry carries no maintained JavaScript writer: the `pmtiles`
 * package (which the tests use to read the archive back) only reads, and the reference writers
 * are Go (go-pmtiles) and Python. The format is small: a 127-byte header, a root directory, JSON
 * metadata, leaf directories and the tiles, each directory a varint-encoded columnar list of
 * (tile id, run length, length, offset) entries.
 *
 * Tiles are gzipped, deduplicated by content (an ocean or all-land tile is stored once and
 * addressed by every tile id it stands for, runs of them as one entry) and laid out in tile id
 * order, so the archive is "clustered". When the root directory would not fit in the first
 * 16,384 bytes with the header, the entries go into leaf directories the root points at.
 */
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { zxyToTileId } from 'pmtiles';

export const HEADER_BYTES = 127;
/** The header and root directory together must fit here (the spec's limit). */
export const ROOT_LIMIT = 16_384;

const COMPRESSION_GZIP = 2;
const TILE_TYPE_MVT = 1;

export interface ArchiveTile {
  z: number;
  x: number;
  y: number;
  /** The tile's bytes, uncompressed (a Mapbox Vector Tile). */
  data: Uint8Array;
}

export interface ArchiveOptions {
  minZoom: number;
  maxZoom: number;
  /** [west, south, east, north] in degrees. */
  bounds: [number, number, number, number];
  /** [longitude, latitude, zoom]. */
  center: [number, number, number];
  /** JSON metadata: `vector_layers`, `name`, `attribution`, ... (TileJSON's keys). */
  metadata: Record<string, unknown>;
}

interface Entry {
  tileId: number;
  offset: number;
  length: number;
  runLength: number;
}

function pushVarint(out: number[], value: number): void {
  // Numbers here stay below 2^53: division keeps them exact where bit operators (32-bit) would not.
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/** A directory as the spec serialises it, before compression. */
export function serializeDirectory(entries: readonly Entry[]): Uint8Array {
  const out: number[] = [];
  pushVarint(out, entries.length);
  let lastId = 0;
  for (const entry of entries) {
    pushVarint(out, entry.tileId - lastId);
    lastId = entry.tileId;
  }
  for (const entry of entries) pushVarint(out, entry.runLength);
  for (const entry of entries) pushVarint(out, entry.length);
  entries.forEach((entry, i) => {
    const previous = entries[i - 1];
    pushVarint(out, i > 0 && previous && entry.offset === previous.offset + previous.length ? 0 : entry.offset + 1);
  });
  return Uint8Array.from(out);
}

function gzip(bytes: Uint8Array): Uint8Array {
  // mtime 0 and a fixed level: the same input always makes the same archive (its name is its hash).
  return new Uint8Array(gzipSync(bytes, { level: 9 }));
}

/** Root and leaf directories: one root if it fits, else leaves of `leafSize` entries, grown until the root fits. */
function directories(entries: readonly Entry[]): { root: Uint8Array; leaves: Uint8Array } {
  const root = gzip(serializeDirectory(entries));
  if (HEADER_BYTES + root.length <= ROOT_LIMIT) return { root, leaves: new Uint8Array(0) };
  for (let leafSize = 4096; ; leafSize = Math.ceil(leafSize * 1.2)) {
    const leafParts: Uint8Array[] = [];
    const rootEntries: Entry[] = [];
    let offset = 0;
    for (let start = 0; start < entries.length; start += leafSize) {
      const leaf = gzip(serializeDirectory(entries.slice(start, start + leafSize)));
      rootEntries.push({ tileId: entries[start]!.tileId, offset, length: leaf.length, runLength: 0 });
      leafParts.push(leaf);
      offset += leaf.length;
    }
    const leafRoot = gzip(serializeDirectory(rootEntries));
    if (HEADER_BYTES + leafRoot.length <= ROOT_LIMIT) return { root: leafRoot, leaves: concat(leafParts) };
  }
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The whole archive's bytes. */
export function writePmtiles(tiles: Iterable<ArchiveTile>, options: ArchiveOptions): Uint8Array {
  const sorted = [...tiles].map((tile) => ({ tileId: zxyToTileId(tile.z, tile.x, tile.y), data: tile.data })).sort((a, b) => a.tileId - b.tileId);
  const entries: Entry[] = [];
  const blobs: Uint8Array[] = [];
  const byContent = new Map<string, { offset: number; length: number }>();
  let dataLength = 0;
  for (const { tileId, data } of sorted) {
    if (data.length === 0) continue;
    const hash = createHash('sha256').update(data).digest('hex');
    let stored = byContent.get(hash);
    if (!stored) {
      const compressed = gzip(data);
      stored = { offset: dataLength, length: compressed.length };
      byContent.set(hash, stored);
      blobs.push(compressed);
      dataLength += compressed.length;
    }
    const last = entries.at(-1);
    if (last && last.offset === stored.offset && last.tileId + last.runLength === tileId) last.runLength += 1;
    else entries.push({ tileId, offset: stored.offset, length: stored.length, runLength: 1 });
  }
  if (entries.length === 0) throw new Error('A PMTiles archive needs at least one tile.');

  const { root, leaves } = directories(entries);
  const metadata = gzip(new TextEncoder().encode(JSON.stringify(options.metadata)));
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + root.length;
  const leavesOffset = metadataOffset + metadata.length;
  const dataOffset = leavesOffset + leaves.length;

  const header = new DataView(new ArrayBuffer(HEADER_BYTES));
  new TextEncoder().encode('PMTiles').forEach((byte, i) => header.setUint8(i, byte));
  header.setUint8(7, 3);
  const u64 = (at: number, value: number) => header.setBigUint64(at, BigInt(value), true);
  u64(8, rootOffset);
  u64(16, root.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, leavesOffset);
  u64(48, leaves.length);
  u64(56, dataOffset);
  u64(64, dataLength);
  u64(72, entries.reduce((sum, entry) => sum + entry.runLength, 0));
  u64(80, entries.length);
  u64(88, byContent.size);
  header.setUint8(96, 1); // clustered: blobs in tile id order, a repeat pointing back
  header.setUint8(97, COMPRESSION_GZIP);
  header.setUint8(98, COMPRESSION_GZIP);
  header.setUint8(99, TILE_TYPE_MVT);
  header.setUint8(100, options.minZoom);
  header.setUint8(101, options.maxZoom);
  const e7 = (degrees: number) => Math.round(degrees * 1e7);
  const [west, south, east, north] = options.bounds;
  header.setInt32(102, e7(west), true);
  header.setInt32(106, e7(south), true);
  header.setInt32(110, e7(east), true);
  header.setInt32(114, e7(north), true);
  const [lon, lat, zoom] = options.center;
  header.setUint8(118, zoom);
  header.setInt32(119, e7(lon), true);
  header.setInt32(123, e7(lat), true);

  return concat([new Uint8Array(header.buffer), root, metadata, leaves, ...blobs]);
}
