/**
 * Floors of an imported map JSON whose drawings are on other sites (exported before floors had
 * to be the product's own files, or written by hand). A floor takes only a file stored here, so
 * each such drawing is copied through the server first (`POST /api/files/from-url`: fetched
 * once, checked and sanitised like an upload); one that cannot be copied is left off its floor,
 * and a note says which and why. Other drawings are left as they are for the schema to judge.
 */

/** What the server stored for a drawing: the floor's new file. */
export interface CopiedDrawing {
  kind: 'svg' | 'image';
  url: string;
  width: number;
  height: number;
}

export type CopyDrawing = (url: string) => Promise<CopiedDrawing>;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const isForeign = (url: unknown): url is string => typeof url === 'string' && /^\s*https?:\/\//i.test(url);

/** Long addresses are cut in the notes. */
const shown = (url: string) => (url.length > 100 ? `${url.slice(0, 97)}…` : url);

/** The addresses of the candidate document's drawings on other sites, each once. */
export function foreignDrawingUrls(candidate: unknown): string[] {
  if (!isObject(candidate) || !Array.isArray(candidate.layers)) return [];
  const urls = candidate.layers.flatMap((layer) => (isObject(layer) && isObject(layer.file) && isForeign(layer.file.url) ? [layer.file.url.trim()] : []));
  return [...new Set(urls)];
}

/**
 * The candidate with each foreign drawing replaced by its stored copy (or taken off its floor),
 * and a note per floor saying which. The same address on several floors is copied once.
 */
export async function copyForeignDrawings(candidate: unknown, copy: CopyDrawing): Promise<{ candidate: unknown; notes: string[] }> {
  const urls = foreignDrawingUrls(candidate);
  if (urls.length === 0 || !isObject(candidate) || !Array.isArray(candidate.layers)) return { candidate, notes: [] };
  const copies = new Map<string, CopiedDrawing | { failed: string }>();
  // One at a time: each is a fetch and a sanitiser run on the server, under the upload budget.
  for (const url of urls) {
    try {
      const { kind, url: stored, width, height } = await copy(url);
      copies.set(url, { kind, url: stored, width, height });
    } catch (error) {
      copies.set(url, { failed: error instanceof Error && error.message ? error.message : 'It could not be fetched.' });
    }
  }
  const notes: string[] = [];
  const layers = candidate.layers.map((layer, index) => {
    if (!isObject(layer) || !isObject(layer.file) || !isForeign(layer.file.url)) return layer;
    const url = layer.file.url.trim();
    const name = typeof layer.name === 'string' && layer.name.trim() ? layer.name.trim() : `Floor ${index + 1}`;
    const copied = copies.get(url);
    if (copied && !('failed' in copied)) {
      notes.push(`Floor “${name}”: its drawing at ${shown(url)} was copied to this site.`);
      return { ...layer, file: copied };
    }
    const reason = copied && 'failed' in copied ? copied.failed : 'It could not be fetched.';
    notes.push(`Floor “${name}”: its drawing at ${shown(url)} could not be copied, so the floor comes without it. ${reason}`);
    return { ...layer, file: null };
  });
  return { candidate: { ...candidate, layers }, notes };
}
