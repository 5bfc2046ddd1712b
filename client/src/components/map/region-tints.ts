/**
 * The regions' tints the server drew for the page without JavaScript
 * (server/public-maps/region-tints.ts): an `<svg>` over the floor's `<img>` in the static map
 * (static-map.tsx). Given only by the server's renderer (client/src/viewer-server.tsx); the
 * browser hydrates the server's markup as it is and never draws them itself (the live floor
 * tints its regions once the canvas takes over).
 */
import { createContext } from 'react';

export interface RegionTints {
  /** The floor they are for (its file's address). */
  fileUrl: string;
  /** The overlay's markup, made from checked geometry only. */
  markup: string;
}

export const RegionTintsContext = createContext<RegionTints | null>(null);
