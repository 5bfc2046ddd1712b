/**
 * Configuration from environment variables, validated at start-up. Every variable has a safe
 * default for the embedded mode, so `npm start` needs none.
 */
import { z } from 'zod';
import type { LicenceMode } from '../events/billing-plans.js';
import { DEFAULT_PASSWORD_HASH_COST } from './auth/password-hash.js';


const EnvSchema = z.object({
  /** `production` (the Docker image sets it): the local test Stripe runs only when LOCAL_STRIPE=1 says so. */
  NODE_ENV: z.string().optional(),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Where the embedded database (and later uploaded files) live. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** PostgreSQL connection string; when unset, PGlite in DATA_DIR is used. */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  /** KurrentDB (EventStoreDB) connection string; when unset, events live in the database above. */
  EVENTSTORE_URL: z.string().regex(/^(kurrentdb|kurrent|esdb|eventstore|kdb)(\+discover)?:\/\/.+/, 'must be a KurrentDB connection string, e.g. kurrentdb://localhost:2113?tls=false').optional(),
  /**
   * Behind a reverse proxy: the proxies' addresses whose X-Forwarded-For is believed for the
   * client's address, which rate limits count by ("loopback", IPs or CIDRs, comma-separated).
   * Unset trusts none: a forged header then changes nothing.
   */
  TRUST_PROXY: z.string().min(1).optional(),
  /** Bearer token for /metrics and /api/ready's details; unset, only this machine reads them (nobody behind a proxy). */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** The address people reach the product at; decides whether cookies are marked Secure. */
  PUBLIC_URL: z.url().default('http://localhost:3000'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Largest request body accepted, in bytes (a map document is sent whole on save). */
  BODY_LIMIT: z.coerce.number().int().min(1024).default(2 * 1024 * 1024),
  /** Largest uploaded file accepted, in bytes (floor plans, images). */
  UPLOAD_LIMIT: z.coerce.number().int().min(1024).default(10 * 1024 * 1024),
  /** Largest file an import takes, in bytes (POST /api/maps/{id}/import: a 100,000-row CSV is 10 to 20 MB). */
  IMPORT_LIMIT: z.coerce.number({ error: 'must be a number of bytes' }).int('must be a whole number of bytes').min(1024, 'must be at least 1024 bytes').max(1024 * 1024 * 1024, 'must be at most 1 GB (1073741824 bytes)').default(64 * 1024 * 1024),
  /**
   * Memory for published maps kept ready to send (their JSON and viewer page, each with its
   * brotli and gzip copies), in bytes; the least recently read are dropped beyond it.
   */
  PUBLIC_MAP_CACHE_BYTES: z.coerce.number({ error: 'must be a number of bytes' }).int('must be a whole number of bytes').min(1024 * 1024, 'must be at least 1 MB (1048576 bytes)').max(16 * 1024 ** 3, 'must be at most 16 GB').default(64 * 1024 * 1024),
  /**
   * How often the viewers' counted visits are written to the insights read model, in ms
   * (server/insights/insights-counter.ts): what a crash can lose at most.
   */
  INSIGHTS_FLUSH_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int('must be a whole number of milliseconds').min(100, 'must be at least 100 ms').max(60_000, 'must be at most 60000 ms').default(2000),
  /** Insight beacons one visitor's address may send per minute, per process (server/insights/beacon-limiter.ts). */
  API_TOKEN_REQUESTS_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000').default(600),
  INSIGHTS_BEACONS_PER_MINUTE: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000').default(120),
  /**
   * log2 of scrypt's N for new password hashes (server/auth/password-hash.ts): 17 (OWASP's
   * recommendation) unless a test server asks for less; below 17 is refused in production.
   */
  PASSWORD_HASH_COST: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(10, 'must be at least 10').max(20, 'must be at most 20').default(DEFAULT_PASSWORD_HASH_COST),
  /** Comma-separated e-mail addresses of local accounts that get the admin claim. */
  ADMIN_EMAILS: z.string().default(''),
  /** SMTP server for outgoing mail (smtp:// or smtps://); unset keeps mail in the local outbox. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  /** The From address of outgoing mail. */
  MAIL_FROM: z.string().min(3).default('Mapfold <no-reply@mapfold.local>'),
  /** Where the contact form's messages are mailed (the team's inbox). */
  CONTACT_EMAIL: z.email('must be an e-mail address').default('hello@mapfold.local'),
  /**
   * 1: billing runs against the local test Stripe this server mounts (no payment is taken);
   * 0: it does not. Unset: it does unless NODE_ENV is production. Not with STRIPE_SECRET_KEY.
   */
  LOCAL_STRIPE: z.enum(['0', '1'], 'must be 1 (run the local test Stripe) or 0 (do not)').optional(),
  /** Stripe: the secret key switches billing to the real Stripe. */
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_/, 'must be a Stripe secret key (sk_... or rk_...)').optional(),
  /** The webhook endpoint's signing secret (whsec_...); required with STRIPE_SECRET_KEY. */
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
  /** Another Stripe API address (a fake Stripe server in tests), e.g. http://127.0.0.1:12111. */
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The Stripe price ids of each plan and interval (local defaults name the local test prices). */
  STRIPE_PRICE_BASIC_MONTHLY: z.string().min(1).default('price_basic_monthly'),
  STRIPE_PRICE_BASIC_YEARLY: z.string().min(1).default('price_basic_yearly'),
  STRIPE_PRICE_PROFESSIONAL_MONTHLY: z.string().min(1).default('price_professional_monthly'),
  STRIPE_PRICE_PROFESSIONAL_YEARLY: z.string().min(1).default('price_professional_yearly'),
  /** Marketplace (Envato) personal token: purchase codes are then checked with its API. */
  ENVATO_TOKEN: z.string().min(1).optional(),
  /**
   * 1: purchase codes are accepted after a format check only, marked unverified (a test install);
   * 0: they are not accepted. Unset: accepted so unless NODE_ENV is production. Not with ENVATO_TOKEN.
   */
  LOCAL_LICENCES: z.enum(['0', '1'], 'must be 1 (accept purchase codes without the marketplace, for tests) or 0 (do not)').optional(),
  ENVATO_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.envato.com'),
  /** Clerk: both keys switch sign-in to Clerk. */
  CLERK_PUBLISHABLE_KEY: z.string().startsWith('pk_').optional(),
  CLERK_SECRET_KEY: z.string().startsWith('sk_').optional(),
  /** Clerk's PEM public key: verifies session tokens without a network call. */
  CLERK_JWT_KEY: z.string().min(1).optional(),
  /** Origins allowed as a token's authorized party (azp); defaults to PUBLIC_URL's origin. */
  CLERK_AUTHORIZED_PARTIES: z.string().optional(),
  /** PostHog project key: set, the client sends analytics to PostHog (after the visitor consents). */
  POSTHOG_KEY: z.string().trim().min(1).optional(),
  /** PostHog's ingestion address (the EU cloud, or a reverse proxy in front of it). */
  POSTHOG_HOST: z.url({ protocol: /^https?$/ }).default('https://us.i.posthog.com'),
  /**
   * A geocoder of streets run by the operator (issue 29 item 3): Nominatim, Photon or Pelias at
   * this address (`http://nominatim:8080`). Unset, addresses are placed by the embedded geocoder
   * only (cities, postcodes, countries).
   */
  GEOCODER_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) address, e.g. http://nominatim:8080' }).optional(),
  /** Which geocoder GEOCODER_URL is: its query and answer formats. */
  GEOCODER_KIND: z.enum(['nominatim', 'photon', 'pelias'], 'must be nominatim, photon or pelias').default('nominatim'),
  /** Requests a second to GEOCODER_URL at most (Nominatim's public servers allow 1; a server of one's own more). */
  GEOCODER_RATE: z.coerce.number({ error: 'must be a number of requests a second' }).positive('must be more than 0').max(1000, 'must be at most 1000').default(1),
  /** Longest one geocoder request may take, in ms. */
  GEOCODER_TIMEOUT_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int('must be a whole number of milliseconds').min(100, 'must be at least 100 ms').max(120_000, 'must be at most 120000 ms').default(10_000),
  /** Distinct addresses one import sends to GEOCODER_URL at most; the rest are placed by the embedded geocoder. */
  GEOCODER_MAX_ADDRESSES: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(1_000_000, 'must be at most 1000000').default(1000),
  /** 1: GEOCODER_URL may be on a private network or this machine (a geocoder of one's own); 0 (default): public addresses only. */
  GEOCODER_ALLOW_PRIVATE: z.enum(['0', '1'], 'must be 1 (the geocoder may be on a private network or this machine) or 0').default('0'),
  /** 1: webhooks (and data sources) may target http:// and this machine's loopback addresses (tests); 0 (default): https and public addresses only. */
  ALLOW_LOOPBACK_TARGETS: z.enum(['0', '1'], 'must be 1 (webhooks may target http:// and loopback addresses, for tests) or 0').default('0'),
  /**
   * The basemap of geographic maps (server/basemap): unset, the embedded world archive this
   * server serves; a PMTiles archive in the Protomaps schema (`pmtiles://https://…/x.pmtiles` or
   * `https://…/x.pmtiles`), styled here; or any MapLibre style (`https://…/style.json`).
   */
  BASEMAP_URL: z
    .string()
    .trim()
    .refine((value) => parseBasemapUrl(value) !== null, 'must be a PMTiles archive (pmtiles://https://… or https://….pmtiles) or a MapLibre style (https://…)')
    .optional(),
  /** The attribution shown for a BASEMAP_URL archive (HTML allowed); unset, OpenStreetMap's and Protomaps'. */
  BASEMAP_ATTRIBUTION: z.string().trim().min(1).optional(),
  /**
   * Where the style's label fonts (SDF glyphs, `{fontstack}/{range}.pbf`) and icons come from;
   * unset, this server's own copies (`/basemap/fonts/…`, `/basemap/sprites/…`).
   */
  BASEMAP_GLYPHS_URL: z.string().trim().regex(/^https?:\/\/.+\{fontstack\}.*\{range\}/, 'must be an http(s) address with {fontstack} and {range}').optional(),
  BASEMAP_SPRITE_URL: z.url({ protocol: /^https?$/ }).optional(),
});

/** Where geographic maps' basemap comes from (BASEMAP_URL). */
export type BasemapSource =
  | { kind: 'embedded' }
  /** A PMTiles archive at an http(s) address (without the `pmtiles://` prefix). */
  | { kind: 'pmtiles'; url: string }
  /** A MapLibre style at an http(s) address. */
  | { kind: 'style'; url: string };

/** BASEMAP_URL read: an archive by its `pmtiles://` scheme or `.pmtiles` path, else a style; null if it is neither. */
export function parseBasemapUrl(value: string): Exclude<BasemapSource, { kind: 'embedded' }> | null {
  const archive = value.startsWith('pmtiles://') ? value.slice('pmtiles://'.length) : null;
  let url: URL;
  try {
    url = new URL(archive ?? value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (archive !== null || url.pathname.endsWith('.pmtiles')) return { kind: 'pmtiles', url: url.href };
  return { kind: 'style', url: url.href };
}

/**
 * Which Stripe billing talks to: Stripe itself (STRIPE_SECRET_KEY), the local test Stripe this
 * server mounts (server/billing/local-stripe), or none (production without either: billing's
 * functions answer unavailable).
 */
export type BillingMode = 'stripe' | 'local' | 'off';

export interface Config {
  stripe: {
    mode: BillingMode;
    /**
     * Stripe's secret key and webhook signing secret (mode `stripe`); null otherwise. In local
     * mode billing uses the local test Stripe's own, made per installation (local-stripe-keys.ts).
     */
    secretKey: string | null;
    webhookSecret: string | null;
    apiUrl: string | null;
    prices: { basic: { monthly: string; yearly: string }; professional: { monthly: string; yearly: string } };
  };
  /** The marketplace's API and how purchase codes are registered (events/billing-plans.ts's LicenceMode). */
  envato: { mode: LicenceMode; token: string | null; apiUrl: string };
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  eventStoreUrl: string | null;
  publicUrl: string;
  trustProxy: string | null;
  metricsToken: string | null;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  bodyLimit: number;
  uploadLimit: number;
  /** Largest file an import takes (IMPORT_LIMIT). */
  importLimit: number;
  /** Bytes of published maps kept in memory (PUBLIC_MAP_CACHE_BYTES). */
  publicMapCacheBytes: number;
  /** log2 of scrypt's N for new password hashes (PASSWORD_HASH_COST; 17 in production). */
  passwordHashCost: number;
  /** Requests a minute per API token, per process (API_TOKEN_REQUESTS_PER_MINUTE, 600). */
  apiTokenRequestsPerMinute: number;
  /** Webhooks may target http:// and loopback addresses (ALLOW_LOOPBACK_TARGETS=1; tests only). */
  allowLoopbackTargets: boolean;
  /** The insights' flush interval and per-address beacon limit (INSIGHTS_FLUSH_MS, INSIGHTS_BEACONS_PER_MINUTE). */
  insights: { flushMs: number; beaconsPerMinute: number };
  adminEmails: ReadonlySet<string>;
  smtpUrl: string | null;
  mailFrom: string;
  contactEmail: string;
  clerk: { publishableKey: string; secretKey: string; jwtKey: string | null; authorizedParties: string[] } | null;
  /** PostHog, when POSTHOG_KEY is set; the client is told at run time (GET /api/client-config). */
  posthog: { key: string; host: string } | null;
  /** The geocoder of streets imports send addresses to (GEOCODER_URL), or null: the embedded geocoder only. */
  geocoder: { url: string; kind: 'nominatim' | 'photon' | 'pelias'; requestsPerSecond: number; timeoutMs: number; maxAddresses: number; allowPrivate: boolean } | null;
  /** The basemap of geographic maps (BASEMAP_URL), its attribution, label fonts and icons (null: this server's own). */
  basemap: { source: BasemapSource; attribution: string | null; glyphsUrl: string | null; spriteUrl: string | null };
}

/** Whether billing uses Stripe, the local test Stripe, or nothing (see BillingMode). */
function billingMode(e: z.infer<typeof EnvSchema>): BillingMode {
  if (e.STRIPE_SECRET_KEY) {
    if (e.LOCAL_STRIPE === '1') throw new Error('Invalid configuration: LOCAL_STRIPE=1 runs the local test Stripe instead of Stripe; unset it, or STRIPE_SECRET_KEY.');
    return 'stripe';
  }
  if (e.STRIPE_WEBHOOK_SECRET) throw new Error('Invalid configuration: STRIPE_WEBHOOK_SECRET is used only with STRIPE_SECRET_KEY.');
  if (e.LOCAL_STRIPE) return e.LOCAL_STRIPE === '1' ? 'local' : 'off';
  // A production server takes no test payments unless its operator asks for them.
  return e.NODE_ENV === 'production' ? 'off' : 'local';
}

/** Whether purchase codes are checked with the marketplace, accepted unchecked, or refused (see LicenceMode). */
function licenceMode(e: z.infer<typeof EnvSchema>): LicenceMode {
  if (e.ENVATO_TOKEN) {
    if (e.LOCAL_LICENCES === '1') throw new Error('Invalid configuration: LOCAL_LICENCES=1 accepts purchase codes without the marketplace; unset it, or ENVATO_TOKEN.');
    return 'marketplace';
  }
  if (e.LOCAL_LICENCES) return e.LOCAL_LICENCES === '1' ? 'local' : 'off';
  // A production server never gives months of Basic for a code nobody checked.
  return e.NODE_ENV === 'production' ? 'off' : 'local';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most twelve-factor tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  if (e.NODE_ENV === 'production' && e.PASSWORD_HASH_COST < DEFAULT_PASSWORD_HASH_COST) {
    throw new Error(`Invalid configuration: PASSWORD_HASH_COST below ${DEFAULT_PASSWORD_HASH_COST} is for test servers only; unset it in production.`);
  }
  if (Boolean(e.CLERK_PUBLISHABLE_KEY) !== Boolean(e.CLERK_SECRET_KEY)) {
    throw new Error('Invalid configuration: set both CLERK_PUBLISHABLE_KEY and CLERK_SECRET_KEY, or neither.');
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    throw new Error('Invalid configuration: STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY.');
  }
  return {
    stripe: {
      mode: billingMode(e),
      secretKey: e.STRIPE_SECRET_KEY ?? null,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
      apiUrl: e.STRIPE_API_URL ?? null,
      prices: {
        basic: { monthly: e.STRIPE_PRICE_BASIC_MONTHLY, yearly: e.STRIPE_PRICE_BASIC_YEARLY },
        professional: { monthly: e.STRIPE_PRICE_PROFESSIONAL_MONTHLY, yearly: e.STRIPE_PRICE_PROFESSIONAL_YEARLY },
      },
    },
    envato: { mode: licenceMode(e), token: e.ENVATO_TOKEN ?? null, apiUrl: e.ENVATO_API_URL.replace(/\/+$/, '') },
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL ?? null,
    eventStoreUrl: e.EVENTSTORE_URL ?? null,
    publicUrl: e.PUBLIC_URL,
    trustProxy: e.TRUST_PROXY ?? null,
    metricsToken: e.METRICS_TOKEN ?? null,
    logLevel: e.LOG_LEVEL,
    bodyLimit: e.BODY_LIMIT,
    uploadLimit: e.UPLOAD_LIMIT,
    importLimit: e.IMPORT_LIMIT,
    publicMapCacheBytes: e.PUBLIC_MAP_CACHE_BYTES,
    passwordHashCost: e.PASSWORD_HASH_COST,
    apiTokenRequestsPerMinute: e.API_TOKEN_REQUESTS_PER_MINUTE,
    allowLoopbackTargets: e.ALLOW_LOOPBACK_TARGETS === '1',
    insights: { flushMs: e.INSIGHTS_FLUSH_MS, beaconsPerMinute: e.INSIGHTS_BEACONS_PER_MINUTE },
    adminEmails: new Set(
      e.ADMIN_EMAILS.split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    ),
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    contactEmail: e.CONTACT_EMAIL,
    clerk:
      e.CLERK_PUBLISHABLE_KEY && e.CLERK_SECRET_KEY
        ? {
            publishableKey: e.CLERK_PUBLISHABLE_KEY,
            secretKey: e.CLERK_SECRET_KEY,
            // Environment variables often carry a PEM key on one line with literal "\n".
            jwtKey: e.CLERK_JWT_KEY?.replace(/\\n/g, '\n') ?? null,
            authorizedParties: (e.CLERK_AUTHORIZED_PARTIES ?? new URL(e.PUBLIC_URL).origin)
              .split(',')
              .map((party) => party.trim())
              .filter(Boolean),
          }
        : null,
    posthog: e.POSTHOG_KEY ? { key: e.POSTHOG_KEY, host: e.POSTHOG_HOST.replace(/\/+$/, '') } : null,
    geocoder: e.GEOCODER_URL
      ? { url: e.GEOCODER_URL, kind: e.GEOCODER_KIND, requestsPerSecond: e.GEOCODER_RATE, timeoutMs: e.GEOCODER_TIMEOUT_MS, maxAddresses: e.GEOCODER_MAX_ADDRESSES, allowPrivate: e.GEOCODER_ALLOW_PRIVATE === '1' }
      : null,
    basemap: {
      source: (e.BASEMAP_URL ? parseBasemapUrl(e.BASEMAP_URL) : null) ?? { kind: 'embedded' },
      attribution: e.BASEMAP_ATTRIBUTION ?? null,
      glyphsUrl: e.BASEMAP_GLYPHS_URL ?? null,
      spriteUrl: e.BASEMAP_SPRITE_URL ?? null,
    },
  };
}
