/**
 * The store locator's code (near-panel.tsx and what it exports: the control, the commands, the
 * distances), loaded on maps with a geographic floor (viewer-directory.tsx, the details' maps
 * link in popup.tsx), and the drawn projections' arithmetic (events/geo-calibration.ts, d3-geo)
 * beside it only when a floor is calibrated by a d3 projection: a street map's floors are Web
 * Mercator bounds, which the code converts itself (issue 29: a basemap map's JavaScript).
 */
import type { MapDocument } from '../../../components/map/types';

export type NearCode = typeof import('./near-panel');

/** Whether a document has a floor calibrated by a d3 projection, whose places need the drawn projections' code. */
export const needsDrawnProjections = (doc: Pick<MapDocument, 'layers'>) => doc.layers.some((layer) => layer.geo?.kind === 'd3');

let code: Promise<NearCode> | null = null;
let drawn: Promise<NearCode> | null = null;

/** Loads the store locator's code (once), with the drawn projections' when `drawnProjections` ({@link needsDrawnProjections}). */
export function loadNearCode(drawnProjections = false): Promise<NearCode> {
  code ??= import('./near-panel');
  if (!drawnProjections) return code;
  return (drawn ??= Promise.all([code, import('../../../../../events/geo-calibration')]).then(([near, calibration]) => {
    near.setDrawnProjections(calibration);
    return near;
  }));
}
