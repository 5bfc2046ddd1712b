/**
 * The MapLibre style of geographic maps' basemap: `@protomaps/basemaps`' light or dark layers
 * over a vector source in the Protomaps basemap schema (the embedded world archive, or a
 * BASEMAP_URL archive such as a Protomaps planet build), labels in the viewer's language where
 * the data names places in it (`name:xx`, else `name`).
 */
import { layers, namedFlavor, type Flavor } from '@protomaps/basemaps';
import type { LayerSpecification, SourceSpecification, StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import type { Config } from '../config.js';

export const BASEMAP_THEMES = ['light', 'dark'] as const;
export type BasemapTheme = (typeof BASEMAP_THEMES)[number];

/** The style's one source, which every layer draws from. */
export const BASEMAP_SOURCE = 'protomaps';

/** The embedded archive's attribution, as its sources ask (Natural Earth's wording; GeoNames' CC BY 4.0). */
export const EMBEDDED_ATTRIBUTION =
  '<a href="https://www.naturalearthdata.com/">Made with Natural Earth</a> · <a href="https://www.census.gov/geographies/mapping-files.html">US Census Bureau</a> · <a href="https://www.geonames.org/">GeoNames</a> (CC BY 4.0)';

/** A Protomaps build's (OpenStreetMap's data, Protomaps' schema), unless BASEMAP_ATTRIBUTION says otherwise. */
export const OSM_ATTRIBUTION = '<a href="https://www.openstreetmap.org/copyright">© OpenStreetMap contributors</a> · <a href="https://protomaps.com">Protomaps</a>';

export interface BasemapStyleOptions {
  theme: BasemapTheme;
  /** The viewer's language (BCP 47, e.g. `fr`, `pt-BR`): labels use `name:<language>` where the data has it. */
  lang: string;
  /** `pmtiles://https://…` for an archive, or a TileJSON address. */
  sourceUrl: string;
  attribution: string;
  glyphsUrl: string;
  /** Icons; without them the layers' icons are left out (MapLibre would warn of each missing image). */
  spriteUrl: string | null;
}

/**
 * The flavour's colours with the background in the water's: the embedded archive has land
 * polygons and no sea ones (a planet build has both, and its land hides the background).
 */
function flavorOf(theme: BasemapTheme): Flavor {
  const flavor = namedFlavor(theme);
  return { ...flavor, background: flavor.water };
}

/** The language's primary subtag as Protomaps' names have it (`name:pt`, `name:zh`). */
export function labelLanguage(lang: string): string {
  return lang.toLowerCase().split('-')[0] || 'en';
}

function withoutIcons(layer: LayerSpecification): LayerSpecification {
  if (layer.type !== 'symbol' || !layer.layout || !('icon-image' in layer.layout)) return layer;
  const layout = { ...layer.layout };
  delete layout['icon-image'];
  delete layout['icon-size'];
  return { ...layer, layout };
}

export function basemapStyle(options: BasemapStyleOptions): StyleSpecification {
  const source: SourceSpecification = { type: 'vector', url: options.sourceUrl, attribution: options.attribution };
  const drawn = layers(BASEMAP_SOURCE, flavorOf(options.theme), { lang: labelLanguage(options.lang) });
  return {
    version: 8,
    name: `Mapfold ${options.theme}`,
    sources: { [BASEMAP_SOURCE]: source },
    glyphs: options.glyphsUrl,
    ...(options.spriteUrl ? { sprite: options.spriteUrl } : {}),
    layers: options.spriteUrl ? drawn : drawn.map(withoutIcons),
  };
}

/**
 * The origins other than this site's that a page showing the basemap fetches from (its archive
 * or style, fonts and icons): what the viewer's Content-Security-Policy must let it connect to
 * once it draws with MapLibre. The fonts and icons are this site's unless BASEMAP_GLYPHS_URL or
 * BASEMAP_SPRITE_URL say otherwise. A BASEMAP_URL style names further hosts of its own (its
 * tiles, fonts, icons), which only that style knows.
 */
export function basemapOrigins(basemap: Config['basemap'], publicUrl: string): string[] {
  const site = new URL(publicUrl).origin;
  const addresses = [basemap.glyphsUrl, basemap.spriteUrl];
  if (basemap.source.kind !== 'embedded') addresses.push(basemap.source.url);
  const origins = addresses.flatMap((address) => (address ? [new URL(address.replace(/[{}]/g, '')).origin] : []));
  return [...new Set(origins)].filter((origin) => origin !== site);
}
