/**
 * `GET /api/public/maps/:id/places?q=&near=`: a store locator's "near …" search (issue 29
 * item 4). A visitor types a place name or a postcode; the answer is the places it may mean,
 * the likeliest first, for the viewer to sort the map's locations by their distance from.
 *
 * Whoever may see the map may search: anyone for a published map, its owner, editors, admins
 * and view-link holders for a test map; any other id answers 404 like a map that does not
 * exist. A street geocoder (GEOCODER_URL, the one imports use, with its rate limit and cache)
 * is asked first when there is one; the embedded gazetteer answers otherwise, or when it
 * finds nothing or fails. Limited per visitor's address (hashed in memory, never written:
 * insights/beacon-limiter.ts), since each search may cost a request to the street geocoder.
 */
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../events/errors.js';
import { ErrorBody } from '../../events/function-results.js';
import { MapIdParams, resultOf } from '../../events/http-api.js';
import { can } from '../../events/map-access.js';
import { nearPoint, PlaceSearchAnswer, PlaceSearchQuery, type PlaceMatch } from '../../events/place-search.js';
import type { Queryable } from '../../ports/database.js';
import { holdsViewLink, loadMapAccess } from '../access/map-access-facts.js';
import { requireTokenScope } from '../auth/api-token-auth.js';
import type { PlaceSearcher } from '../geocoding/place-search-pool.js';
import type { RemoteGeocoder } from '../geocoding/remote-geocoder.js';
import { typed } from '../http/zod-routes.js';
import type { BeaconLimiter } from '../insights/beacon-limiter.js';
import type { PublicMapCache } from '../public-maps/public-map-cache.js';

const NOT_FOUND = 'Map not found.';
export const TOO_MANY_SEARCHES = 'Too many searches. Please wait a minute.';
/** What a published map's answer may be kept for: the gazetteer changes with a new release only. */
const PUBLISHED_CACHE_CONTROL = 'public, max-age=86400';

export interface PlaceSearchRouteOptions {
  db: Queryable;
  cache: PublicMapCache;
  searcher: PlaceSearcher;
  limiter: BeaconLimiter;
  /** The street geocoder (GEOCODER_URL), or null. */
  geocoder: RemoteGeocoder | null;
  onGeocoderError?: (error: unknown) => void;
}

export async function placeSearchRoutes(app: FastifyInstance, options: PlaceSearchRouteOptions): Promise<void> {
  const { db, cache, searcher, limiter, geocoder } = options;
  /** Requests whose caller was read already (an API token's, before validation). */
  const identified = new WeakSet<object>();

  /** A street geocoder's one answer, as a match; null when it found nothing or could not be asked. */
  async function askStreetGeocoder(query: string): Promise<PlaceMatch | null> {
    if (!geocoder) return null;
    try {
      const found = await geocoder.place({ street: query, city: '', state: '', postcode: '', country: '' });
      return found ? { name: query, region: null, country: null, lat: found.lat, lng: found.lng, precision: found.precision } : null;
    } catch (error) {
      options.onGeocoderError?.(error);
      return null;
    }
  }

  typed(app).get(
    '/api/public/maps/:id/places',
    {
      schema: {
        tags: ['public'],
        summary: 'Places a visitor’s search may mean (store locator)',
        description:
          'A place name ("Springfield, IL", "Lyon, France") or a postcode (US ZIP, Canada) to the places it may mean, the likeliest first, at most 5: `near` (the map\'s view, "lat,lng") says which country an ambiguous name is looked for in first. A street geocoder answers first where the server has one (GEOCODER_URL). For whoever may see the map; 30 searches a minute per visitor.',
        params: MapIdParams,
        querystring: PlaceSearchQuery,
        response: { 200: resultOf(PlaceSearchAnswer), '4xx': ErrorBody },
      },
      // An API token is checked before the query (a revoked one is 401 whatever it asks);
      // a session's cookie is read only for a test map, below: a published map's answer is
      // everyone's, kept by caches.
      onRequest: async (request, reply) => {
        if (!request.headers.authorization) return;
        await app.access.identify(request, reply);
        await requireTokenScope(request, reply);
        identified.add(request);
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const { q, near, key } = request.query;
      reply.header('cache-control', 'no-store');
      // Before the map is looked up: a flood of made-up ids costs no more than a real one.
      if (!limiter.take(request.ip)) throw new DomainError('resource-exhausted', TOO_MANY_SEARCHES);
      const found = await cache.json(id);
      if (found.kind === 'absent') throw new DomainError('not-found', NOT_FOUND);
      if (found.kind !== 'published') {
        if (!identified.has(request)) await app.access.identify(request, reply);
        const access = await loadMapAccess(db, id);
        if (!access || !can(request.principal, access.facts, 'view', { viaViewLink: holdsViewLink(access, key) })) throw new DomainError('not-found', NOT_FOUND);
      }
      const street = await askStreetGeocoder(q);
      const embedded = await searcher.search(q, nearPoint(near));
      const places = street ? [street, ...embedded].slice(0, 5) : embedded;
      reply.header('cache-control', found.kind === 'published' ? PUBLISHED_CACHE_CONTROL : 'private, no-store');
      return { result: { places } };
    },
  );
}
