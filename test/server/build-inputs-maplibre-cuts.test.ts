/**
 * The parts of MapLibre the client's build leaves out (scripts/maplibre-source-plugin.ts: layer
 * types, source types, a tile encoding and 3D terrain no Mapfold style uses, issue 29's 320 KB aim) stay
 * unused: Mapfold's basemap styles (both themes, with and without icons, in every viewer
 * language) and the client code that adds MapLibre layers and sources name none of them. A style
 * of Mapfold's that starts using one fails here, not as a layer silently missing from the map.
 * The stand-ins keep the exports of the modules they replace, and the build stops when MapLibre's
 * layer factory creates a type the replacement does not know, or its setTerrain changed (a newer MapLibre).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VIEWER_LOCALES } from '../../events/locales.js';
import { basemapStyle, BASEMAP_THEMES } from '../../server/basemap/basemap-style.js';
import {
  exportedValues,
  maplibreCutsIn,
  maplibreFromSource,
  MAPLIBRE_CUT_ENCODINGS,
  MAPLIBRE_CUT_LAYER_TYPES,
  MAPLIBRE_CUT_SOURCE_TYPES,
  MAPLIBRE_STUBBED_FILES,
} from '../../scripts/maplibre-source-plugin.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const MAPLIBRE_SRC = path.join(path.dirname(createRequire(import.meta.url).resolve('maplibre-gl/package.json')), 'src');

/** The plugin's transform of one of MapLibre's sources, as the client's build runs it. */
async function transformed(file: string, code = readFileSync(path.join(MAPLIBRE_SRC, file), 'utf8')): Promise<string | null> {
  const plugin = maplibreFromSource();
  const transform = plugin.transform as { handler: (this: unknown, code: string, id: string) => Promise<{ code: string } | null> };
  const result = await transform.handler.call({}, code, path.join(MAPLIBRE_SRC, file));
  return result?.code ?? null;
}

describe("Mapfold's styles and the left-out parts of MapLibre", () => {
  it('the basemap styles use none of them', () => {
    for (const theme of BASEMAP_THEMES) {
      for (const lang of VIEWER_LOCALES) {
        for (const spriteUrl of ['https://example.test/sprites/v4/light', null]) {
          const style = basemapStyle({ theme, lang, sourceUrl: 'pmtiles://https://example.test/world.pmtiles', attribution: 'x', glyphsUrl: 'https://example.test/{fontstack}/{range}.pbf', spriteUrl });
          expect(maplibreCutsIn(style), `${theme} ${lang} ${spriteUrl ? 'with' : 'without'} icons`).toEqual([]);
          for (const layer of style.layers) expect(['background', 'fill', 'line', 'symbol', 'circle', 'raster']).toContain(layer.type);
        }
      }
    }
  });

  it('the check names a style that uses one', () => {
    const style = {
      sources: { a: { type: 'vector', encoding: 'mlt' }, b: { type: 'image' }, c: { type: 'geojson' } },
      layers: [{ id: 'buildings', type: 'fill-extrusion' }, { id: 'land', type: 'fill' }, { id: 'density', type: 'heatmap' }],
    };
    expect(maplibreCutsIn(style)).toEqual(['source a: encoding mlt', 'source b: type image', 'layer buildings: type fill-extrusion', 'layer density: type heatmap']);
    expect(maplibreCutsIn({ ...style, layers: [], sources: {}, terrain: { source: 'dem' } })).toEqual(['terrain']);
  });

  it("the client's code adds no layer, source or encoding of them to a MapLibre map", () => {
    const files = readdirSync(path.join(REPO, 'client/src'), { recursive: true, encoding: 'utf8' }).filter((file) => /\.tsx?$/.test(file));
    const cut = [...MAPLIBRE_CUT_LAYER_TYPES, ...MAPLIBRE_CUT_SOURCE_TYPES];
    const named = new RegExp(`type:\\s*['"\`](${cut.join('|')})['"\`]|encoding:\\s*['"\`](${MAPLIBRE_CUT_ENCODINGS.join('|')})['"\`]|\\b(setTerrain|setSky)\\(`);
    const mapLibreFiles = files.filter((file) => {
      const code = readFileSync(path.join(REPO, 'client/src', file), 'utf8');
      return /from 'maplibre-gl'|\.addLayer\(|\.addSource\(/.test(code);
    });
    expect(mapLibreFiles.length).toBeGreaterThan(3);
    for (const file of mapLibreFiles) expect(readFileSync(path.join(REPO, 'client/src', file), 'utf8'), file).not.toMatch(named);
  });
});

describe("the build's stand-ins for MapLibre's modules", () => {
  it('keep the exports of each module they replace', async () => {
    for (const file of MAPLIBRE_STUBBED_FILES) {
      const original = exportedValues(readFileSync(path.join(MAPLIBRE_SRC, file), 'utf8'));
      const stub = await transformed(file);
      expect(original.length, file).toBeGreaterThan(0);
      // The stand-in is small and imports nothing: the module's code and dependencies are out of the build.
      expect(stub, file).not.toMatch(/\bimport\b/);
      for (const name of original) expect(stub, `${file} ${name}`).toMatch(new RegExp(`export (const|function) ${name}\\b`));
    }
  });

  it("make the painter's checks for a left-out layer say no, and the left-out shaders empty", async () => {
    expect(await transformed('style/style_layer/heatmap_style_layer.ts')).toMatch(/export const isHeatmapStyleLayer = \(\) => false;/);
    expect(await transformed('shaders/glsl/fill_extrusion.vertex.glsl.g.ts')).toMatch(/export default "";|export default '';/);
    // A kept layer's shader is MapLibre's own.
    expect((await transformed('shaders/glsl/fill.vertex.glsl.g.ts'))!.length).toBeGreaterThan(100);
  });

  it('draw a style asking for 3D terrain flat, with a warning, and stop a build whose setTerrain changed', async () => {
    const map = await transformed('ui/map.ts');
    expect(map).toMatch(/setTerrain\(options, styleOptions = \{\}\) \{\s*if \(options\) \{\s*warnOnce\("3D terrain [^"]*drawn flat\."\);\s*options = null;/);
    const original = readFileSync(path.join(MAPLIBRE_SRC, 'ui/map.ts'), 'utf8');
    await expect(transformed('ui/map.ts', original.replace('setTerrain(options: TerrainSpecification | null,', 'setTerrain(options: TerrainSpecification | undefined,'))).rejects.toThrow(/setTerrain/);
  });

  it("replace the layer factory with one that hides a left-out type, and stop a build whose factory knows another type", async () => {
    const factory = await transformed('style/create_style_layer.ts');
    expect(factory).toMatch(/warnOnce/);
    for (const type of MAPLIBRE_CUT_LAYER_TYPES) expect(factory).not.toContain(`'${type}'`);
    const original = readFileSync(path.join(MAPLIBRE_SRC, 'style/create_style_layer.ts'), 'utf8');
    const newer = original.replace("case 'symbol':", "case 'model':\n            return null;\n        case 'symbol':");
    await expect(transformed('style/create_style_layer.ts', newer)).rejects.toThrow(/model/);
  });
});
