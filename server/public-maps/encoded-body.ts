/**
 * A response body kept in three encodings (identity, brotli, gzip), compressed once when it is
 * built rather than per request, with a strong ETag. The published-map cache keeps these.
 *
 * Brotli's quality: 11 (its best) makes a 13 KB map JSON about 20% smaller than quality 4 for
 * ~15 ms of one build; but on a 2 MB map (5,000 locations) quality 11 takes seconds, while 6
 * is within 50% of its size in ~20 ms. So 11 up to {@link BEST_QUALITY_UP_TO} bytes and 6 above:
 * every size stays a build of well under a second, done on libuv's threads (the async zlib),
 * never on the event loop, and paid once per map revision, not per visitor.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

export const BEST_QUALITY_UP_TO = 64 * 1024;
/** For bodies compressed per request (a private test map): cheap, like @fastify/compress's default. */
export const QUICK_BROTLI_QUALITY = 4;

export interface EncodedBody {
  readonly identity: Buffer;
  readonly br: Buffer;
  readonly gzip: Buffer;
  /** Strong and quoted (`"..."`), as sent. */
  readonly etag: string;
  /** The three encodings' bytes together: what the cache counts. */
  readonly size: number;
}

export type ContentCoding = 'br' | 'gzip' | 'identity';

/** The brotli quality for a body of this many bytes (see the file's comment). */
export function brotliQualityFor(bytes: number): number {
  return bytes <= BEST_QUALITY_UP_TO ? 11 : 6;
}

/** Compresses `identity` both ways, once. */
export async function encodeBody(identity: Buffer, etag: string, brotliQuality = brotliQualityFor(identity.length)): Promise<EncodedBody> {
  const [br, gz] = await Promise.all([
    brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzip(identity, { level: 9 }),
  ]);
  return { identity, br, gzip: gz, etag, size: identity.length + br.length + gz.length };
}

/** One encoding of a body, for answers compressed per request and never kept (test maps). */
export async function encodeOnce(identity: Buffer, coding: ContentCoding): Promise<Buffer> {
  if (coding === 'br') return brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: QUICK_BROTLI_QUALITY } });
  if (coding === 'gzip') return gzip(identity);
  return identity;
}

/** A strong ETag naming these exact bytes (for bodies whose inputs are not all in a revision, such as pages). */
export function contentEtag(prefix: string, body: Buffer): string {
  return `"${prefix}.${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
}
