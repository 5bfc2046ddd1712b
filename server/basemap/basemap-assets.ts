/**
 * The basemap's label fonts and icons, served by the app itself so that neither a page offline
 * nor a privacy-minded customer's visitors fetch them from a third party (issue 29 item 2):
 * copies from protomaps/basemaps-assets under basemap/fonts/ and basemap/sprites/ (made by
 * scripts/basemap/glyph-ranges.ts; sources and licences in basemap/README.md).
 *
 * Only the font stacks the style names and the glyph ranges the embedded archive's names and the
 * viewer languages need are kept (basemap/fonts/ranges.json); any other range is absent, which
 * MapLibre tolerates (those characters go undrawn). Files are read on first use and kept.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fromProjectRoot } from '../project-root.js';

/** Where the copies are, from the repository's root: the server may run compiled, from dist/node/. */
export const BASEMAP_FONTS_DIR = fromProjectRoot('basemap', 'fonts');
export const BASEMAP_SPRITES_DIR = fromProjectRoot('basemap', 'sprites');

/** The sprite sheets' version folder (`/basemap/sprites/v4/light.json`). */
export const SPRITE_VERSION = 'v4';
const SPRITE_NAME = /^(light|dark)(@2x)?\.(json|png)$/;
const GLYPH_RANGE = /^(\d{1,5})-(\d{1,5})\.pbf$/;

interface RangesFile {
  stacks: string[];
  aliases: Record<string, string>;
  ranges: string[];
}

export interface Asset {
  bytes: Buffer;
  /** A strong ETag: the first 16 hex digits of the bytes' SHA-256. */
  etag: string;
  contentType: string;
}

export interface BasemapAssets {
  /** The glyphs of the first member of a comma-separated stack that has the range, or null. */
  glyphs(fontstack: string, range: string): Promise<Asset | null>;
  /** A sprite sheet's `name.json` or `name.png` (`light`, `dark`, with `@2x`), or null. */
  sprite(file: string): Promise<Asset | null>;
}

async function readAsset(file: string, contentType: string): Promise<Asset | null> {
  try {
    const bytes = await readFile(file);
    return { bytes, etag: `"${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}"`, contentType };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The assets under `fontsDir` and `spritesDir`. Names are looked up in the kept lists, never
 * joined into a path as asked: no `..` or encoded slash reaches the file system.
 */
export function basemapAssets(fontsDir = BASEMAP_FONTS_DIR, spritesDir = BASEMAP_SPRITES_DIR): BasemapAssets {
  let index: Promise<RangesFile | null> | null = null;
  const loaded = new Map<string, Promise<Asset | null>>();
  const once = (key: string, load: () => Promise<Asset | null>): Promise<Asset | null> => {
    let asset = loaded.get(key);
    if (!asset) {
      asset = load();
      loaded.set(key, asset);
      asset.catch(() => loaded.delete(key));
    }
    return asset;
  };
  const ranges = (): Promise<RangesFile | null> => {
    index ??= readFile(`${fontsDir}/ranges.json`, 'utf8').then(
      (text) => JSON.parse(text) as RangesFile,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return null;
        index = null;
        throw error;
      },
    );
    return index;
  };

  return {
    async glyphs(fontstack, range) {
      const match = GLYPH_RANGE.exec(range);
      if (!match || Number(match[1]) % 256 !== 0 || Number(match[2]) !== Number(match[1]) + 255) return null;
      const kept = await ranges();
      const name = `${match[1]}-${match[2]}`;
      if (!kept?.ranges.includes(name)) return null;
      for (const member of fontstack.split(',')) {
        const trimmed = member.trim();
        const stack = Object.hasOwn(kept.aliases, trimmed) ? kept.aliases[trimmed]! : trimmed;
        if (!kept.stacks.includes(stack)) continue;
        const asset = await once(`${stack}/${name}`, () => readAsset(`${fontsDir}/${stack}/${name}.pbf`, 'application/x-protobuf'));
        if (asset) return asset;
      }
      return null;
    },
    async sprite(file) {
      const match = SPRITE_NAME.exec(file);
      if (!match) return null;
      return once(`sprite/${file}`, () => readAsset(`${spritesDir}/${SPRITE_VERSION}/${file}`, match[3] === 'png' ? 'image/png' : 'application/json; charset=utf-8'));
    },
  };
}
