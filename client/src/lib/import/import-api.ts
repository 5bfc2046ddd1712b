/**
 * `POST /api/maps/{id}/import`: sends a file (or a main file and the files it references) and
 * answers the server's preview, or, with `apply`, records the import and answers the same shape.
 * One file goes as the raw body (`?filename=` names it); several go as multipart/form-data, the
 * main one as `file` and the others under their own names, as a Mapplic JSON names its level maps.
 *
 * XMLHttpRequest, not fetch: it is the one browser API that reports upload progress, and a
 * 100,000-row table is worth a progress bar. The server's refusals keep its own words.
 */
import { ImportPreview, type ImportOptions } from '../../../../events/map-import';
import { ApiError } from '../api';
import { sendWithProgress } from '../upload/send-with-progress';
import { clerkSessionToken } from '../upload/upload-api';

export interface ImportRequest {
  mapId: string;
  /** The main file first, then the files it references. */
  files: readonly File[];
  /** The user's changes to the guess (columns, regions); sent only when it says something. */
  options?: ImportOptions;
  /** Record it (`?apply=1`) rather than only preview it. */
  apply?: boolean;
  /** `?layer=`: an SVG's regions become locations of this existing floor (its drawing is the file). */
  layer?: string;
}

export interface ImportCallbacks {
  /** The share of the bytes sent, 0 to 1. */
  onProgress?: (fraction: number) => void;
  /** Every byte is sent: the server is reading the file now. */
  onUploaded?: () => void;
  signal?: AbortSignal;
  /** Where to send it; the same origin by default. */
  baseUrl?: string;
}

/** File types a table, a map file or a drawing may come as; the server decides by the content. */
export const IMPORT_ACCEPT = '.csv,.tsv,.txt,.json,.geojson,.kml,.kmz,.svg,.png,.jpg,.jpeg,.webp,text/csv,application/json,application/geo+json,application/vnd.google-earth.kml+xml,application/vnd.google-earth.kmz,image/svg+xml,image/png,image/jpeg,image/webp';

const ATTACHMENT = /\.(svg|png|jpe?g|webp|gif)$/i;

/**
 * The main file of several: the first that is not a drawing or an image (a Mapplic JSON beside
 * its level SVGs), or the first of all when every one is a drawing.
 */
export function orderImportFiles(files: readonly File[]): File[] {
  const main = files.find((file) => !ATTACHMENT.test(file.name)) ?? files[0];
  return main ? [main, ...files.filter((file) => file !== main)] : [];
}

function hasOptions(options: ImportOptions | undefined): options is ImportOptions {
  if (!options) return false;
  return (options.columns !== undefined) || (options.skipRegions?.length ?? 0) > 0 || (options.includeRegions?.length ?? 0) > 0;
}

/** The request's address: the file's name, the mapping and whether to apply, as query parameters. */
export function importUrl({ mapId, files, options, apply, layer }: ImportRequest, baseUrl = ''): string {
  const query = new URLSearchParams();
  const [main] = files;
  if (main) query.set('filename', main.name);
  if (layer) query.set('layer', layer);
  if (hasOptions(options)) query.set('mapping', JSON.stringify(options));
  if (apply) query.set('apply', '1');
  return `${baseUrl}/api/maps/${encodeURIComponent(mapId)}/import?${query.toString()}`;
}

/** Sends the files; resolves to the server's preview, rejects with an {@link ApiError} in the server's words. */
export async function sendImport(request: ImportRequest, callbacks: ImportCallbacks = {}): Promise<ImportPreview> {
  const [main, ...attachments] = request.files;
  if (!main) throw new ApiError('invalid-argument', 'Choose a file to import.', 0);
  // Clerk mode's token; the local mode has none and the session cookie goes along.
  const token = await clerkSessionToken();
  let body: Blob | FormData;
  let contentType: string | undefined;
  if (attachments.length === 0) {
    body = main;
    // The browser's guess helps the server tell a CSV from a JSON; the content decides in the end.
    contentType = main.type || 'application/octet-stream';
  } else {
    const form = new FormData();
    form.append('file', main, main.name);
    for (const file of attachments) form.append(file.name, file, file.name);
    body = form;
  }
  return sendWithProgress({
    url: importUrl(request, callbacks.baseUrl),
    body,
    ...(contentType ? { contentType } : {}),
    token,
    schema: ImportPreview,
    ...(callbacks.onProgress ? { onProgress: callbacks.onProgress } : {}),
    ...(callbacks.onUploaded ? { onUploaded: callbacks.onUploaded } : {}),
    ...(callbacks.signal ? { signal: callbacks.signal } : {}),
    messages: {
      failed: 'The file could not be imported. Try again.',
      timeout: 'Sending the file took too long. Try again on a faster connection.',
      cancelled: 'The import was cancelled.',
    },
  });
}
