/**
 * A geocoder of streets the operator runs (GEOCODER_URL): Nominatim, Photon or Pelias, the
 * open-source geocoders of OpenStreetMap data. An import's rows with a street address and no
 * coordinates are sent to it, each distinct address once (issue 29 item 3):
 *
 * - rate-limited for the whole process (GEOCODER_RATE requests a second: Nominatim's public
 *   servers allow one, a server of one's own as many as it takes), a few at once when the rate
 *   allows;
 * - cached in memory (an address asked once is not asked again, by this import or the next: a
 *   preview and its apply ask once);
 * - through the server's safe outbound fetch (server/files/fetch-remote-file.ts: no redirects
 *   to elsewhere unchecked, one deadline each); private and loopback addresses only when
 *   GEOCODER_ALLOW_PRIVATE=1 says the geocoder is on the operator's own network;
 * - failures never fail the import: an address not answered is placed by the embedded
 *   geocoder (city or postcode) or left unplaced, and after a few failures in a row the rest
 *   of the import is not sent.
 *
 * Nominatim: `GET /search?format=jsonv2&limit=1&street=…&city=…&state=…&postalcode=…&country=…`
 * (its structured query), or `q=` for an address in one cell; answers a list of places with
 * `lat`, `lon` (strings) and `place_rank`. Photon: `GET /api?q=…&limit=1`; Pelias:
 * `GET /v1/search?text=…&size=1`; both answer GeoJSON.
 */
import type { LRUCache } from 'lru-cache';
import { lruOfAtMost } from '../lru-of-at-most.js';
import { addressKey, type Placement } from '../../events/geocoding.js';
import type { LocationPrecision } from '../../events/map-document.js';
import type { PlannedAddress } from '../../events/map-import.js';
import { fetchRemoteFile, type Resolver } from '../files/fetch-remote-file.js';
import { isPublicAddress, type AddressPolicy } from '../files/public-address.js';

export const GEOCODER_KINDS = ['nominatim', 'photon', 'pelias'] as const;
export type GeocoderKind = (typeof GEOCODER_KINDS)[number];

export interface RemoteGeocoderOptions {
  url: string;
  kind: GeocoderKind;
  /** Requests a second at most, over all imports. */
  requestsPerSecond: number;
  /** Longest one request may take. */
  timeoutMs: number;
  /** Distinct addresses one import sends at most; the rest are placed by the embedded geocoder. */
  maxAddresses: number;
  /** Whether the geocoder may be on a private network or this machine (GEOCODER_ALLOW_PRIVATE). */
  allowPrivate?: boolean;
  /** Which addresses may be connected to (tests); overrides allowPrivate. */
  isAllowedAddress?: AddressPolicy;
  resolve?: Resolver;
  /** Sent as User-Agent (Nominatim's policy asks that an application say who it is). */
  userAgent?: string;
  /** Answers kept in memory. */
  cacheEntries?: number;
}

export interface GeocodeProgress {
  done: number;
  total: number;
}

/** Failures in a row after which an import stops asking (the geocoder is down or refusing). */
const FAILURES_IN_A_ROW = 5;
/** Largest answer read (one place is a few hundred bytes). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** Cloud metadata and link-local addresses: never, even on a private network. */
const linkLocal = (address: string) => /^169\.254\./.test(address) || /^fe[89ab][0-9a-f]:/i.test(address) || /^::ffff:169\.254\./i.test(address);

const ENDPOINTS: Record<GeocoderKind, string> = { nominatim: '/search', photon: '/api', pelias: '/v1/search' };

/** The request's address for `address` on a geocoder at `base`. */
export function geocoderRequestUrl(base: string, kind: GeocoderKind, address: PlannedAddress): string {
  const url = new URL(base);
  const endpoint = ENDPOINTS[kind];
  if (!url.pathname.replace(/\/+$/, '').endsWith(endpoint)) url.pathname = `${url.pathname.replace(/\/+$/, '')}${endpoint}`;
  const text = [address.street, address.city, address.state, address.postcode, address.country].map((part) => part.trim()).filter(Boolean).join(', ');
  if (kind === 'nominatim') {
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('limit', '1');
    url.searchParams.set('addressdetails', '0');
    // The structured query when the row gives the parts; one cell's whole address as free text.
    if (address.city || address.postcode || address.state || address.country) {
      const parts: Array<[string, string]> = [['street', address.street], ['city', address.city], ['state', address.state], ['postalcode', address.postcode], ['country', address.country]];
      for (const [name, value] of parts) if (value.trim()) url.searchParams.set(name, value.trim());
    } else url.searchParams.set('q', text);
  } else if (kind === 'photon') {
    url.searchParams.set('q', text);
    url.searchParams.set('limit', '1');
  } else {
    url.searchParams.set('text', text);
    url.searchParams.set('size', '1');
  }
  return url.href;
}

const STREET_TYPES = new Set(['house', 'street', 'address', 'venue', 'building', 'other']);
const CITY_TYPES = new Set(['city', 'town', 'village', 'hamlet', 'district', 'locality', 'localadmin', 'borough', 'neighbourhood', 'macrohood', 'microhood', 'suburb']);
const REGION_TYPES = new Set(['county', 'macrocounty', 'state', 'region', 'macroregion']);
const COUNTRY_TYPES = new Set(['country', 'dependency']);

function precisionOfType(type: string): LocationPrecision {
  if (type === 'postcode' || type === 'postalcode') return 'postcode';
  if (STREET_TYPES.has(type)) return 'street';
  if (REGION_TYPES.has(type)) return 'region';
  if (COUNTRY_TYPES.has(type)) return 'country';
  if (CITY_TYPES.has(type)) return 'city';
  return 'city';
}

/** Nominatim's place rank to a precision (its "Place Ranking" documentation: 4 country, 5 to 12 states and counties, 13 to 25 towns to neighbourhoods, 26 and more streets and houses). */
function precisionOfRank(rank: number): LocationPrecision {
  if (rank >= 26) return 'street';
  if (rank >= 13) return 'city';
  if (rank >= 5) return 'region';
  return 'country';
}

const finite = (value: unknown): number | null => {
  const number = typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : Number.NaN;
  return Number.isFinite(number) ? number : null;
};

/** The first place of a geocoder's answer, or null when it found none (or answered something else). */
export function placementOf(kind: GeocoderKind, json: unknown): Placement | null {
  if (kind === 'nominatim') {
    const first = Array.isArray(json) ? (json[0] as Record<string, unknown> | undefined) : undefined;
    if (!first) return null;
    const lat = finite(first.lat);
    const lng = finite(first.lon);
    if (lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
    const postcode = first.addresstype === 'postcode' || first.type === 'postcode' || first.type === 'postal_code';
    const rank = finite(first.place_rank) ?? finite(first.rank_address) ?? 16;
    return { lat, lng, precision: postcode ? 'postcode' : precisionOfRank(rank) };
  }
  const features = (json as { features?: unknown } | null)?.features;
  const first = Array.isArray(features) ? (features[0] as { geometry?: { coordinates?: unknown }; properties?: Record<string, unknown> } | undefined) : undefined;
  const coordinates = first?.geometry?.coordinates;
  if (!Array.isArray(coordinates)) return null;
  const lng = finite(coordinates[0]);
  const lat = finite(coordinates[1]);
  if (lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  const properties = first?.properties ?? {};
  const type = String(kind === 'photon' ? (properties.osm_value === 'postcode' ? 'postcode' : (properties.type ?? '')) : (properties.layer ?? ''));
  return { lat, lng, precision: precisionOfType(type) };
}

export class RemoteGeocoder {
  private readonly cache: LRUCache<string, { placement: Placement | null }>;
  private nextSlot = 0;
  private readonly policy: AddressPolicy;

  constructor(private readonly options: RemoteGeocoderOptions) {
    this.cache = lruOfAtMost(options.cacheEntries ?? 100_000);
    this.policy = options.isAllowedAddress ?? (options.allowPrivate ? (address) => !linkLocal(address) : isPublicAddress);
  }

  get maxAddresses(): number {
    return this.options.maxAddresses;
  }

  /** Waits for the next request's turn under the rate limit (shared by every import of the process). */
  private async turn(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + 1000 / this.options.requestsPerSecond;
    if (at > now) await new Promise((resolve) => setTimeout(resolve, at - now));
  }

  /** One address asked (the cache first); null: not found; throws when the geocoder could not be asked. */
  async place(address: PlannedAddress): Promise<Placement | null> {
    const key = addressKey(address);
    const cached = this.cache.get(key);
    if (cached) return cached.placement;
    await this.turn();
    const bytes = await fetchRemoteFile(geocoderRequestUrl(this.options.url, this.options.kind, address), {
      maxBytes: MAX_ANSWER_BYTES,
      timeoutMs: this.options.timeoutMs,
      isAllowedAddress: this.policy,
      ...(this.options.resolve ? { resolve: this.options.resolve } : {}),
      headers: { accept: 'application/json, application/geo+json;q=0.9', 'user-agent': this.options.userAgent ?? 'Mapfold (geocoding addresses on import)' },
    });
    const placement = placementOf(this.options.kind, JSON.parse(new TextDecoder().decode(bytes)) as unknown);
    this.cache.set(key, { placement });
    return placement;
  }

  /**
   * Each distinct address asked once (up to maxAddresses), a few at a time within the rate;
   * answers by address key: a placement, or null for one not found. An address the geocoder
   * could not answer (an error, a timeout) has no entry: the embedded geocoder places it.
   */
  async placeAll(addresses: readonly PlannedAddress[], onProgress?: (progress: GeocodeProgress) => void, log?: (error: unknown) => void): Promise<Map<string, Placement | null>> {
    const answers = new Map<string, Placement | null>();
    const queue = [...new Map(addresses.map((address) => [addressKey(address), address])).values()].slice(0, this.options.maxAddresses);
    const total = queue.length;
    let done = 0;
    let failures = 0;
    let next = 0;
    onProgress?.({ done, total });
    const lanes = Math.max(1, Math.min(8, Math.floor(this.options.requestsPerSecond)));
    const lane = async () => {
      while (next < queue.length && failures < FAILURES_IN_A_ROW) {
        const address = queue[next++]!;
        try {
          answers.set(addressKey(address), await this.place(address));
          failures = 0;
        } catch (error) {
          failures++;
          log?.(error);
        }
        done++;
        onProgress?.({ done, total });
      }
    };
    await Promise.all(Array.from({ length: lanes }, lane));
    onProgress?.({ done: total, total });
    return answers;
  }
}
