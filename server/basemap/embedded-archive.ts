/**
 * The embedded world basemap (basemap/world.pmtiles, made by scripts/build-basemap.ts), read
 * whole into memory on first use (9 MB) and named by its content's hash, so its hashed address
 * can be cached for good: a new archive is a new address.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fromProjectRoot } from '../project-root.js';

/** Where the archive is (scripts/build-basemap.ts's BASEMAP_FILE), from the repository's root: the server may run compiled, from dist/node/. */
export const EMBEDDED_ARCHIVE_FILE = fromProjectRoot('basemap', 'world.pmtiles');

/** The archive's name in its addresses (`/basemap/world.pmtiles`, `/basemap/world.<hash>.pmtiles`). */
export const EMBEDDED_ARCHIVE_NAME = 'world';

export interface Archive {
  bytes: Buffer;
  /** The first 12 hex digits of the bytes' SHA-256: the hashed address's and the ETag's. */
  hash: string;
}

export type ArchiveLoader = () => Promise<Archive | null>;

/** Loads the archive once (null if the file is missing: the routes then answer 404). */
export function archiveLoader(file: string = EMBEDDED_ARCHIVE_FILE): ArchiveLoader {
  let loading: Promise<Archive | null> | null = null;
  return () => {
    loading ??= readFile(file).then(
      (bytes) => ({ bytes, hash: createHash('sha256').update(bytes).digest('hex').slice(0, 12) }),
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        loading = null;
        throw error;
      },
    );
    return loading;
  };
}

/** A byte range asked for, inclusive at both ends. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A Range header read against a file of `size` bytes (RFC 9110 §14): the one range it asks
 * for; `'unsatisfiable'` for a bytes range past the end, a malformed one, or several (which no
 * tile reader sends; answered 416 rather than as a multipart body); null to send the whole
 * file (no header, or a unit other than bytes, which the RFC says to ignore).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const trimmed = header.trim();
  const unit = /^([A-Za-z]+)=/.exec(trimmed);
  if (!unit) return 'unsatisfiable';
  if (unit[1]!.toLowerCase() !== 'bytes') return null;
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(trimmed);
  if (!match || (match[1] === '' && match[2] === '')) return 'unsatisfiable';
  if (match[1] === '') {
    // A suffix: the last N bytes.
    const length = Number(match[2]);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || Number(match[2] === '' ? start : match[2]) < start) return 'unsatisfiable';
  return { start, end };
}
