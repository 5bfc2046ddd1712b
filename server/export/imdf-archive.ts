/**
 * The edges of the IMDF export (events/imdf-export.ts converts): the calibrated floors' drawings
 * read for their region outlines, and the files zipped with fflate, each at the archive's root
 * as Apple's IMDF tools expect.
 */
import { strToU8, zipSync } from 'fflate';
import type { MapDocument, Point } from '../../events/map-document.js';
import type { ImdfFiles } from '../../events/imdf-export.js';
import { svgOutlines } from './svg-outlines.js';

/** A floor drawing's SVG text by its url, or null (not an SVG, not ours, too large). */
export type ReadFloor = (url: string) => Promise<string | null>;

/** Region outlines of every calibrated floor drawn as an SVG, by floor id. */
export async function readOutlines(document: MapDocument, readFloor: ReadFloor): Promise<Map<string, Map<string, Point[][]>>> {
  const outlines = new Map<string, Map<string, Point[][]>>();
  // Floors are read one after another: a map has at most 100, each at most a few MB.
  for (const layer of document.layers) {
    if (!layer.geo || layer.file?.kind !== 'svg') continue;
    const svg = await readFloor(layer.file.url);
    if (svg) outlines.set(layer.id, svgOutlines(svg));
  }
  return outlines;
}

/** The archive as zip bytes; every entry dated `at`, so the same map at the same time zips the same. */
export function imdfZip(files: ImdfFiles, at: Date): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, content] of Object.entries(files)) entries[name] = strToU8(JSON.stringify(content));
  return zipSync(entries, { level: 6, mtime: at });
}
