/**
 * The one thing done to a file before the server reads it: a Mapfold JSON whose floors' drawings
 * are on other sites (exported before floors had to be the product's own files, or written by
 * hand) has them copied here first (foreign-drawings.ts, through `POST /api/files/from-url`),
 * because the server's import takes a floor's drawing only from this site. Every other file goes
 * as it is; this reads nothing but a JSON's floors.
 */
import { copyForeignDrawings, foreignDrawingUrls, type CopyDrawing } from './foreign-drawings';
import { storeFileFromUrl } from './store-file-from-url';

/** A JSON larger than this is not looked into here (a map's JSON is far smaller); the server judges it. */
const MAX_LOOKED_INTO = 20 * 1024 * 1024;

export interface PreparedFiles {
  files: File[];
  /** What became of drawings on other sites, floor by floor. */
  notes: string[];
}

const copyThroughServer: CopyDrawing = (url) => storeFileFromUrl(url);

/** A file's text (FileReader: every browser has it, and so does the test DOM). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsText(file);
  });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export async function prepareImportFiles(files: File[], copy: CopyDrawing = copyThroughServer): Promise<PreparedFiles> {
  const [main, ...rest] = files;
  if (!main || !/\.json$/i.test(main.name) || main.size > MAX_LOOKED_INTO) return { files, notes: [] };
  let value: unknown;
  try {
    value = JSON.parse((await readText(main)).replace(/^\uFEFF/, ''));
  } catch {
    // Not JSON after all: the server says so in its words.
    return { files, notes: [] };
  }
  // Mapfold's export is `{title, document}`; a bare document imports too.
  const wrapper = isObject(value) && 'document' in value ? value : null;
  const candidate = wrapper ? wrapper.document : value;
  if (foreignDrawingUrls(candidate).length === 0) return { files, notes: [] };
  const copied = await copyForeignDrawings(candidate, copy);
  const json = JSON.stringify(wrapper ? { ...wrapper, document: copied.candidate } : copied.candidate);
  return { files: [new File([json], main.name, { type: main.type || 'application/json' }), ...rest], notes: copied.notes };
}
