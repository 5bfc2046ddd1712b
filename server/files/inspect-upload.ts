/**
 * What an uploaded file is, found from its content alone (never its name or the content type
 * the client sent): PNG, JPEG and WebP by their signatures, SVG by parsing it as XML with an
 * `<svg>` root. Images are measured; SVGs are sanitised (sanitize-svg.ts) and measured.
 * Anything else is refused with a message that says what is accepted.
 */
import { imageSize } from 'image-size';
import { DomainError } from '../../events/errors.js';
import type { RemovedPart } from '../../events/files-api.js';
import type { FileMeta } from './file-store.js';
import { sanitizeSvg, SvgRejectedError } from './sanitize-svg.js';
import { inlineSvgSanitizer, type SvgSanitizer } from './svg-sanitizer-pool.js';

export const UNSUPPORTED_TYPE = 'This type of file is not supported. Upload an SVG, PNG, JPEG or WebP file.';

/** Images wider or taller than this would take a browser down when drawn (a decompression bomb). */
export const MAX_IMAGE_SIDE = 16_384;

export interface InspectedFile {
  /** What to store: the upload as it came for images, the sanitised document for SVGs. */
  bytes: Uint8Array;
  meta: FileMeta;
  /** What sanitising an SVG removed (see sanitize-svg.ts); empty for images. */
  removed: RemovedPart[];
}

type RasterType = { contentType: string; name: string; sizeType: string };

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The raster type the bytes' signature names, if any. */
export function rasterTypeOf(bytes: Uint8Array): RasterType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { contentType: 'image/png', name: 'PNG', sizeType: 'png' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { contentType: 'image/jpeg', name: 'JPEG', sizeType: 'jpg' };
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return { contentType: 'image/webp', name: 'WebP', sizeType: 'webp' };
  return null;
}

/** The bytes as text, if they are text: UTF-8 (BOM or not) or UTF-16 with a BOM. */
export function decodeText(bytes: Uint8Array): string | null {
  try {
    if (startsWith(bytes, [0xfe, 0xff])) return new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2));
    if (startsWith(bytes, [0xff, 0xfe])) return new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2));
    // TextDecoder drops a UTF-8 BOM itself.
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // Text files do not hold NULs or most control characters.
    // eslint-disable-next-line no-control-regex -- control characters are what this looks for
    return /[\u0000-\u0008\u000e-\u001f]/.test(text) ? null : text;
  } catch {
    return null;
  }
}

/**
 * The name of the document's root element, read past the XML declaration, comments,
 * processing instructions and the DOCTYPE; null when the text does not look like XML.
 */
export function xmlRootName(text: string): string | null {
  let rest = text.replace(/^\uFEFF/, '');
  for (let guard = 0; guard < 1000; guard++) {
    rest = rest.replace(/^\s+/, '');
    if (rest.startsWith('<?')) {
      const end = rest.indexOf('?>');
      if (end < 0) return null;
      rest = rest.slice(end + 2);
    } else if (rest.startsWith('<!--')) {
      const end = rest.indexOf('-->');
      if (end < 0) return null;
      rest = rest.slice(end + 3);
    } else if (/^<!DOCTYPE\b/i.test(rest)) {
      // To the `>` that closes it, past an internal subset in [ ].
      const subset = rest.indexOf('[');
      const close = rest.indexOf('>');
      if (close < 0) return null;
      if (subset >= 0 && subset < close) {
        const endSubset = rest.indexOf(']', subset);
        if (endSubset < 0) return null;
        const after = rest.indexOf('>', endSubset);
        if (after < 0) return null;
        rest = rest.slice(after + 1);
      } else {
        rest = rest.slice(close + 1);
      }
    } else {
      const match = /^<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]/.exec(rest);
      return match ? match[2]! : null;
    }
  }
  return null;
}

function formatLimit(bytes: number): string {
  const MB = 1024 * 1024;
  if (bytes >= MB) return `${Number.isInteger(bytes / MB) ? bytes / MB : (bytes / MB).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** The catalogue message for a file over the limit. */
export function tooLargeMessage(limit: number): string {
  return `The file is too large (the limit is ${formatLimit(limit)}).`;
}

function inspectRaster(bytes: Uint8Array, type: RasterType): InspectedFile {
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    throw new DomainError('invalid-argument', `The ${type.name} image could not be read; the file may be damaged.`);
  }
  if (size.type !== type.sizeType || !(size.width > 0) || !(size.height > 0)) {
    throw new DomainError('invalid-argument', `The ${type.name} image could not be read; the file may be damaged.`);
  }
  // EXIF orientations 5 to 8 turn the picture a quarter: browsers show it turned.
  const turned = (size.orientation ?? 1) >= 5;
  const width = turned ? size.height : size.width;
  const height = turned ? size.width : size.height;
  if (width > MAX_IMAGE_SIDE || height > MAX_IMAGE_SIDE) {
    throw new DomainError('invalid-argument', `The image is too large to show: at most ${MAX_IMAGE_SIDE} pixels on a side (this one is ${width} × ${height}).`);
  }
  return { bytes, meta: { kind: 'image', contentType: type.contentType, width, height }, removed: [] };
}

async function inspectSvg(text: string, sanitizer: SvgSanitizer): Promise<InspectedFile> {
  try {
    const { svg, width, height, removed } = await sanitizer.sanitize(text);
    return { bytes: new TextEncoder().encode(svg), meta: { kind: 'svg', contentType: 'image/svg+xml', width, height }, removed };
  } catch (error) {
    if (error instanceof SvgRejectedError) throw new DomainError('invalid-argument', error.message);
    throw error;
  }
}

const onThisThread = inlineSvgSanitizer(sanitizeSvg);

/**
 * What the upload is, ready to store; rejects with an `invalid-argument` DomainError with a
 * message for the person who sent it when it cannot be accepted. SVGs are sanitised by
 * `sanitizer` (a worker thread in the server; on this thread by default).
 */
export async function inspectUpload(bytes: Uint8Array | null | undefined, limit: number, sanitizer: SvgSanitizer = onThisThread): Promise<InspectedFile> {
  if (!bytes || bytes.byteLength === 0) throw new DomainError('invalid-argument', 'The file is empty.');
  if (bytes.byteLength > limit) throw new DomainError('invalid-argument', tooLargeMessage(limit));
  const raster = rasterTypeOf(bytes);
  if (raster) return inspectRaster(bytes, raster);
  const text = decodeText(bytes);
  if (text !== null && xmlRootName(text)?.toLowerCase() === 'svg') return inspectSvg(text, sanitizer);
  throw new DomainError('invalid-argument', UNSUPPORTED_TYPE);
}
