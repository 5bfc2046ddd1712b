/**
 * MapLibre's one-time setup in this page, before its first map: its worker, as the build emits
 * it (a module worker built from MapLibre's sources, sharing chunks with this page's MapLibre:
 * scripts/maplibre-source-plugin.ts; MapLibre would look for its prebuilt worker beside its own
 * file, which a bundle does not keep), and the `pmtiles://` protocol the basemap's style reads its archive with (HTTP Range
 * requests, server/basemap/basemap-routes.ts).
 */
import { addProtocol, setWorkerUrl } from 'maplibre-gl';
import workerUrl from 'virtual:maplibre-worker';
import { Protocol } from 'pmtiles';

let done = false;

export function setUpMapLibre(): void {
  if (done) return;
  done = true;
  setWorkerUrl(new URL(workerUrl, window.location.href).href);
  addProtocol('pmtiles', new Protocol().tile);
}
