import type { Layer } from './types';

/**
 * Whether a floor is drawn on the basemap: flagged so, on Web Mercator bounds (a later
 * version's basemap on another calibration shows as a drawn floor). Kept free of imports: the
 * floor-plan viewer's first load carries it (map-renderer.tsx picks the view by it).
 */
export function isBasemapFloor(layer: Pick<Layer, 'basemap' | 'geo'>): boolean {
  return !!layer.basemap && layer.geo?.kind === 'bounds' && layer.geo.projection === 'mercator';
}
