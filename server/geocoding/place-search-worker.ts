/**
 * The body of the place search's worker thread (place-search-pool.ts): a visitor's "near …"
 * query answered from the embedded gazetteer (events/place-search.ts). The gazetteer takes
 * about 3 s and 130 MB of heap to build, so it is built here, once per worker, never on the
 * server's thread (which would stop every request meanwhile) and never at start (issue 26
 * item 7: the idle server's memory); the worker ends after a while without searches.
 */
import { parentPort } from 'node:worker_threads';
import type { LatLngPoint } from '../../events/geocoding.js';
import { countryNear, searchPlaces, type PlaceMatch } from '../../events/place-search.js';
import { embeddedGazetteer } from './gazetteer.js';

export interface PlaceSearchRequest {
  id: number;
  query: string;
  /** Where the visitor is looking: an ambiguous name is looked for in that country first. */
  near: LatLngPoint | null;
}

export type PlaceSearchReply = { id: number; ok: true; places: PlaceMatch[] } | { id: number; ok: false; message: string };

parentPort?.on('message', (request: PlaceSearchRequest) => {
  try {
    const gazetteer = embeddedGazetteer();
    const country = request.near ? countryNear(gazetteer, request.near) : null;
    const places = searchPlaces(gazetteer, request.query, country ? [country] : []);
    parentPort?.postMessage({ id: request.id, ok: true, places } satisfies PlaceSearchReply);
  } catch (error) {
    parentPort?.postMessage({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies PlaceSearchReply);
  }
});
