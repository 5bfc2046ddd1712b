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
  /** How far the server has got placing rows by their address (a street geocoder can take minutes). */
  onGeocoding?: (progress: { done: number; total: number }) => void;
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
export function importUrl({ mapId, files, options, apply, layer }: ImportRequest, baseUrl = '', progress?: string): string {
  const query = new URLSearchParams();
  const [main] = files;
  if (main) query.set('filename', main.name);
  if (layer) query.set('layer', layer);
  if (hasOptions(options)) query.set('mapping', JSON.stringify(options));
  if (apply) query.set('apply', '1');
  if (progress) query.set('progress', progress);
  return `${baseUrl}/api/maps/${encodeURIComponent(mapId)}/import?${query.toString()}`;
}

/** How often the geocoding's progress is asked while the server works on the file. */
const PROGRESS_POLL_MS = 1000;

/** Asks the server how far the import's geocoding has got, once a second until `done` resolves. */
function pollGeocoding(url: string, token: string | null, onGeocoding: (progress: { done: number; total: number }) => void, done: Promise<unknown>): void {
  let finished = false;
  void done.finally(() => {
    finished = true;
  });
  const ask = async () => {
    if (finished) return;
    try {
      const response = await fetch(url, { credentials: 'same-origin', ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}) });
      const body = response.ok ? ((await response.json()) as { result?: { phase?: string; done?: number; total?: number } }) : null;
      const state = body?.result;
      if (!finished && state?.phase === 'geocoding' && typeof state.done === 'number' && typeof state.total === 'number') onGeocoding({ done: state.done, total: state.total });
    } catch {
      // Progress is a nicety: the import's own answer says how it went.
    }
    if (!finished) setTimeout(() => void ask(), PROGRESS_POLL_MS);
  };
  setTimeout(() => void ask(), PROGRESS_POLL_MS);
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
  // A name for this import, to ask how far its geocoding has got while the server works on it.
  const progressToken = callbacks.onGeocoding ? `i${Math.random().toString(36).slice(2, 12)}${Date.now().toString(36)}` : undefined;
  const { onGeocoding, onUploaded } = callbacks;
  let answered: (value?: unknown) => void = () => undefined;
  const uploaded =
    onGeocoding && progressToken
      ? () => {
          onUploaded?.();
          pollGeocoding(`${callbacks.baseUrl ?? ''}/api/maps/${encodeURIComponent(request.mapId)}/import/progress?token=${progressToken}`, token, onGeocoding, new Promise((resolve) => (answered = resolve)));
        }
      : onUploaded;
  return sendWithProgress({
    url: importUrl(request, callbacks.baseUrl, progressToken),
    body,
    ...(contentType ? { contentType } : {}),
    token,
    schema: ImportPreview,
    ...(callbacks.onProgress ? { onProgress: callbacks.onProgress } : {}),
    ...(uploaded ? { onUploaded: uploaded } : {}),
    ...(callbacks.signal ? { signal: callbacks.signal } : {}),
    messages: {
      failed: 'The file could not be imported. Try again.',
      timeout: 'Sending the file took too long. Try again on a faster connection.',
      cancelled: 'The import was cancelled.',
    },
  }).finally(() => answered());
}
