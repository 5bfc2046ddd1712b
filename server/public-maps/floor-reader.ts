/**
 * Reads a floor's SVG for the server-rendered viewer page (region-tints.ts): a stored file
 * (`/files/{id}`, from the file store) or a built-in map's floor (`/assets/demo/{name}.svg`,
 * from the client's build). Anything else, a file that is not an SVG, or one larger than
 * {@link FLOOR_MAX_BYTES}, reads as null (the page then has no tints).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FileStore } from '../files/file-store.js';
import { isFileId } from '../files/file-store.js';

export const FLOOR_MAX_BYTES = 4 * 1024 * 1024;
const STORED = /^\/files\/([A-Za-z0-9_-]{22})$/;
const BUILT_IN = /^\/assets\/demo\/([a-z0-9-]{1,64})\.svg$/;

export function floorReader(files: FileStore, clientDist: string): (url: string) => Promise<string | null> {
  return async (url) => {
    const stored = STORED.exec(url);
    if (stored && isFileId(stored[1]!)) {
      const opened = await files.open(stored[1]!);
      if (!opened) return null;
      if (opened.file.kind !== 'svg' || opened.file.size > FLOOR_MAX_BYTES) {
        opened.body.destroy();
        return null;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of opened.body) chunks.push(Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks).toString('utf8');
    }
    const builtIn = BUILT_IN.exec(url);
    if (builtIn) {
      const file = path.join(clientDist, 'assets', 'demo', `${builtIn[1]}.svg`);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile() || info.size > FLOOR_MAX_BYTES) return null;
      return readFile(file, 'utf8');
    }
    return null;
  };
}
