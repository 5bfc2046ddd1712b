/**
 * The label fonts the embedded basemap needs, so the app serves them itself (issue 29 item 2):
 * which 256-codepoint glyph ranges (`{start}-{end}.pbf`) its labels can ask for, written to
 * basemap/fonts/ranges.json, and (with `--assets`) the copy of those ranges and of the v4 sprites
 * from a checkout of protomaps/basemaps-assets.
 *
 * The ranges: every character of every name (`name`, `name:xx`) in the places layer of
 * basemap/world.pmtiles, at every zoom; Basic Latin and Latin-1 (0-255); and the scripts the 11
 * viewer languages (events/locales.ts) write in, since MapLibre asks for a range as soon as a
 * label holds one of its characters. Arabic's presentation forms are among them: MapLibre's
 * right-to-left plugin shapes Arabic into those codepoints before asking for glyphs.
 *
 *   npx tsx scripts/basemap/glyph-ranges.ts                       # writes basemap/fonts/ranges.json
 *   npx tsx scripts/basemap/glyph-ranges.ts --assets <git dir>    # and copies fonts and sprites from it
 *
 * `<git dir>` is a clone (bare or not) of https://github.com/protomaps/basemaps-assets; the commit
 * copied is the one basemap/README.md names (ASSETS_COMMIT below).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles, type Source } from 'pmtiles';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const GLYPH_RANGES_FILE = 'basemap/fonts/ranges.json';

/** protomaps/basemaps-assets' commit the copy is from (main on 2025-06-06). */
export const ASSETS_COMMIT = 'f12391e9bcf40f9b727c48df01cb5edf2a119d27';

/** The font stacks the style's layers name (`text-font` of @protomaps/basemaps' layers). */
export const FONT_STACKS = ['Noto Sans Regular', 'Noto Sans Medium', 'Noto Sans Italic'] as const;

/** Stacks that are another's files under a second name (symbolic links in basemaps-assets). */
export const FONT_ALIASES: Record<string, (typeof FONT_STACKS)[number]> = { 'Noto Sans Devanagari Regular v1': 'Noto Sans Regular' };

/** The sprites copied: the light and dark v4 sheets, at 1x and 2x. */
export const SPRITES = ['light', 'dark', 'light@2x', 'dark@2x'] as const;

/** Unicode blocks the viewer languages write in (first and last codepoint). */
const UI_SCRIPTS: Record<string, [number, number][]> = {
  // Latin for en, es, fr, de, pt, it, nl, pl: Latin-1, Extended-A (ł, ś, œ), Extended Additional (ẞ); punctuation (’ – … €).
  latin: [[0x0000, 0x024f], [0x1e00, 0x1eff], [0x2000, 0x20cf]],
  // ja: CJK symbols and punctuation, hiragana, katakana, fullwidth forms; ja and zh: the unified ideographs.
  cjk: [[0x3000, 0x30ff], [0x4e00, 0x9fff], [0xff00, 0xffef]],
  // ar: Arabic, its supplement, and its presentation forms A and B.
  arabic: [[0x0600, 0x06ff], [0x0750, 0x077f], [0xfb50, 0xfdff], [0xfe70, 0xfeff]],
};

const rangeOf = (codepoint: number): number => Math.floor(codepoint / 256);

/** The archive's place names, every distinct string of a `name` or `name:xx` field in any tile. */
export async function placeNames(file: string): Promise<Set<string>> {
  const data = readFileSync(file);
  const source: Source = {
    getKey: () => file,
    getBytes: async (offset, length) => ({ data: data.buffer.slice(data.byteOffset + offset, data.byteOffset + offset + length) as ArrayBuffer }),
  };
  const archive = new PMTiles(source);
  const header = await archive.getHeader();
  const names = new Set<string>();
  for (let z = header.minZoom; z <= header.maxZoom; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const tile = await archive.getZxy(z, x, y);
        if (!tile) continue;
        const places = new VectorTile(new PbfReader(new Uint8Array(tile.data))).layers.places;
        for (let i = 0; places && i < places.length; i++) {
          for (const [key, value] of Object.entries(places.feature(i).properties)) {
            if ((key === 'name' || key.startsWith('name:')) && typeof value === 'string') names.add(value);
          }
        }
      }
    }
  }
  return names;
}

/** The glyph ranges (`start-end`, in codepoint order) the names and the viewer languages' scripts need. */
export function glyphRanges(names: Iterable<string>): string[] {
  const ranges = new Set<number>([0]);
  for (const name of names) for (const char of name) ranges.add(rangeOf(char.codePointAt(0)!));
  for (const blocks of Object.values(UI_SCRIPTS)) {
    for (const [first, last] of blocks) for (let range = rangeOf(first); range <= rangeOf(last); range++) ranges.add(range);
  }
  return [...ranges].filter((range) => range < 256).sort((a, b) => a - b).map((range) => `${range * 256}-${range * 256 + 255}`);
}

function show(gitDir: string, file: string): Buffer {
  return execFileSync('git', ['--git-dir', gitDir, 'show', `${ASSETS_COMMIT}:${file}`], { maxBuffer: 64 * 1024 * 1024 });
}

/** Copies the kept ranges of each stack, the sprites and the licences from a basemaps-assets git dir. */
function copyAssets(gitDir: string, ranges: string[]): void {
  const fonts = path.join(ROOT, 'basemap', 'fonts');
  for (const stack of FONT_STACKS) {
    rmSync(path.join(fonts, stack), { recursive: true, force: true });
    mkdirSync(path.join(fonts, stack), { recursive: true });
    for (const range of ranges) writeFileSync(path.join(fonts, stack, `${range}.pbf`), show(gitDir, `fonts/${stack}/${range}.pbf`));
  }
  writeFileSync(path.join(fonts, 'OFL.txt'), show(gitDir, 'fonts/OFL.txt'));
  const sprites = path.join(ROOT, 'basemap', 'sprites', 'v4');
  mkdirSync(sprites, { recursive: true });
  for (const sprite of SPRITES) {
    for (const ext of ['json', 'png']) writeFileSync(path.join(sprites, `${sprite}.${ext}`), show(gitDir, `sprites/v4/${sprite}.${ext}`));
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const names = await placeNames(path.join(ROOT, 'basemap', 'world.pmtiles'));
  const ranges = glyphRanges(names);
  mkdirSync(path.join(ROOT, 'basemap', 'fonts'), { recursive: true });
  writeFileSync(path.join(ROOT, GLYPH_RANGES_FILE), `${JSON.stringify({ stacks: FONT_STACKS, aliases: FONT_ALIASES, ranges }, null, 2)}\n`);
  console.log(`${names.size} names, ${ranges.length} ranges: ${ranges.join(' ')}`);
  const assets = process.argv.indexOf('--assets');
  if (assets !== -1) {
    const gitDir = process.argv[assets + 1];
    if (!gitDir) throw new Error('--assets needs the basemaps-assets git dir');
    copyAssets(gitDir, ranges);
  }
}
