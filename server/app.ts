/**
 * The whole HTTP application as one Fastify instance, built from its services and not yet
 * listening: tests use `app.inject` or listen on port 0; `main.ts` is only the process entry.
 * Plugins load in a visible order: integrations, then request context, then routes.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions, type RouteOptions } from 'fastify';
import { QuietRoutesLogController } from './http/quiet-routes.js';
import { codeForStatus, DomainError } from '../events/errors.js';
import { functionPayloads } from '../events/functions.js';
import { allProjections } from '../projections/index.js';
import type { RetryPolicy } from '../projections/retry.js';
import { createMetrics, type Metrics } from './ops/metrics.js';
import { projectionFaults } from './ops/projection-faults.js';
import { projectionLag } from './ops/projection-lag.js';
import { reactorFaults } from './ops/reactor-faults.js';
import { opsRoutes } from './routes/ops-routes.js';
import { CLOSE_FORBIDDEN_ORIGIN, CLOSE_OUTDATED_CLIENT, CLOSE_UNAUTHENTICATED, LIVE_PROTOCOL_QUERY, LIVE_PROTOCOL_VERSION, OUTDATED_CLIENT_REASON } from '../events/live-messages.js';
import type { Principal } from '../events/principal.js';
import { devOutboxRoutes } from './routes/dev-outbox-routes.js';
import { refuseUnsafeText } from './security/unsafe-text-hook.js';
import { PUBLIC_MAP_JSON_ROUTE, pageKindOf, securityHeaders } from './security/security-headers.js';
import { functionCallLimits } from './security/function-call-limits.js';
import type { Limit } from './security/rate-limiter.js';
import type { Clock, IdGenerator } from './clock.js';
import { errorHandler, sendError } from './errors.js';
import { LiveHub } from './live/live-hub.js';
import type { PresenceTimings } from './live/presence.js';
import { authRoutes } from './routes/auth-routes.js';
import { fileRoutes, type FileRouteOptions } from './routes/file-routes.js';
import { setUpBilling } from './billing/billing-plugin.js';
import type { ReactorRunner } from './billing/reactor-runner.js';
import { BILLING_REACTOR } from './billing/billing-reactor.js';
import { functionRoutes } from './routes/function-routes.js';
import { setUpWebhooks } from './webhooks/webhook-service.js';
import { DirectionsBatcher } from './webhooks/webhook-directions.js';
import { publicMapRoutes, publishedJsonNotModifiedFastPath } from './routes/public-map-routes.js';
import { floorReader } from './public-maps/floor-reader.js';
import { ssrViewerPage } from './public-maps/ssr-viewer-page.js';
import type { ViewerPageRenderer } from './public-maps/viewer-page.js';
import { queryRoutes } from './routes/query-routes.js';
import { mapSetAsideRoutes } from './routes/map-set-aside-routes.js';
import { commentRoutes } from './routes/comment-routes.js';
import { sharingRoutes } from './routes/sharing-routes.js';
import { ViewLinkKeys } from './access/view-link-keys.js';
import { peopleDirectory } from './access/people.js';
import { historyRoutes } from './routes/history-routes.js';
import { publicationRoutes } from './routes/publication-routes.js';
import { PublishScheduler } from './publishing/publish-scheduler.js';
import { importRoutes } from './import/import-routes.js';
import { MapSync, syncRoutes } from './import/map-sync.js';
import { SyncScheduler } from './import/sync-scheduler.js';
import { MapHistory } from './history/map-history.js';
import { adminRoutes } from './routes/admin-routes.js';
import { templateRoutes } from './routes/template-routes.js';
import { contactRoutes } from './routes/contact-routes.js';
import { clientConfigRoutes } from './routes/client-config-routes.js';
import { seoRoutes } from './routes/seo-routes.js';
import { basemapRoutes } from './basemap/basemap-routes.js';
import type { Services } from './services.js';
import { accessHooks, isSameOrigin, registerAccessHooks } from './http/access-hooks.js';
import { registerOpenApi } from './http/openapi.js';
import { useZodSchemas } from './http/zod-routes.js';
import { staticCacheControl } from './http/static-cache.js';
import { findPrerenderedPage } from './http/prerendered-pages.js';
import fastifyCompress from '@fastify/compress';
import { PublicMapCache } from './public-maps/public-map-cache.js';
import { publishedStateReader } from './public-maps/published-map.js';
import { InsightsCounter } from './insights/insights-counter.js';
import { BeaconLimiter } from './insights/beacon-limiter.js';
import { insightsReportRoutes, publicInsightsRoutes } from './routes/insights-routes.js';
import { placeSearchRoutes } from './routes/place-search-routes.js';
import { WorkerPlaceSearcher, type PlaceSearcher } from './geocoding/place-search-pool.js';
import { RemoteGeocoder } from './geocoding/remote-geocoder.js';
import { fromProjectRoot } from './project-root.js';
import fastifyRateLimit from '@fastify/rate-limit';
import { ApiTokenAuth, requireTokenScope } from './auth/api-token-auth.js';
import { apiTokenRoutes } from './routes/api-token-routes.js';
import { apiDocsRoutes } from './http/api-docs.js';

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
    ids: IdGenerator;
    liveHub: LiveHub;
    metrics: Metrics;
    /** Published maps kept in memory (server/public-maps/public-map-cache.ts). */
    publicMaps: PublicMapCache;
    /** The viewers' visits counted in memory and flushed to `map_insights` (server/insights/insights-counter.ts). */
    insights: InsightsCounter;
    /** Answers checkouts and Stripe's webhooks (tests wait for it). */
    billingReactor: ReactorRunner;
    /** Publishes scheduled revisions when due (server/publishing/publish-scheduler.ts; tests call its tick). */
    publishScheduler: PublishScheduler;
    syncScheduler: SyncScheduler;
  }
  interface FastifyRequest {
    principal: Principal | null;
    correlationId: string;
  }
}

export interface AppOptions {
  /** How often live sockets' sessions and tokens are checked again (ms). */
  liveRecheckMs?: number;
  /** Presence's keepalive, expiry and throttle (tests shorten them). */
  presenceTimings?: Partial<PresenceTimings>;
  /** A logger shared with the rest of the process (main.ts); overrides `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** How `POST /api/files/from-url` fetches (tests allow their own local server's address). */
  remoteFiles?: FileRouteOptions['remote'];
  /** Told of every route as it is added, before any plugin's (tests check each declares its schema). */
  onRoute?: (route: RouteOptions) => void;
  /** How the billing reactor retries a failing handler before parking its event (tests make it quick). */
  reactorRetry?: Partial<RetryPolicy>;
  /** Renders `/m/{id}` for published maps (default: the server-rendered viewer, server/public-maps/ssr-viewer-page.ts). */
  viewerPage?: ViewerPageRenderer;
  /** Calls to `POST /api/fn/*` per account and window (default: security/function-call-limits.ts). */
  functionCallLimit?: Limit;
  /** Answers visitors' place searches (default: the embedded gazetteer in a worker thread). */
  placeSearcher?: PlaceSearcher;
}

/** A store locator's searches one visitor's address may make a minute. */
const PLACE_SEARCHES_PER_MINUTE = 30;

const CORRELATION_ID = /^[A-Za-z0-9_.:-]{1,100}$/;
const CLIENT_DIST = fromProjectRoot('dist/client');
/** The viewer's server renderer (`vite build --ssr`). */
const SERVER_DIST = fromProjectRoot('dist/server');
/** The client's files as the repository holds them: the demo's floors for a server run before a build. */
const CLIENT_PUBLIC = fromProjectRoot('client/public');

export async function buildApp(
  services: Services,
  logger: FastifyServerOptions['logger'] = false,
  options: AppOptions = {},
): Promise<FastifyInstance> {
  const { config, db } = services;
  // Requests answered before Fastify sees them (set below, once what they read exists).
  let beforeRouting: ((request: IncomingMessage, response: ServerResponse) => boolean) | null = null;
  const common = {
    // Fastify's own HTTP server and settings, with one thing first: the published map's 304
    // from memory (publishedJsonNotModifiedFastPath), the embeds' commonest request.
    serverFactory: (handler: (request: IncomingMessage, response: ServerResponse) => void, settings: FastifyServerOptions) => {
      const server = createServer((request, response) => {
        if (beforeRouting?.(request, response) !== true) handler(request, response);
      });
      server.keepAliveTimeout = settings.keepAliveTimeout ?? 72_000;
      server.requestTimeout = settings.requestTimeout ?? 0;
      server.setTimeout(settings.connectionTimeout ?? 0);
      if (settings.maxRequestsPerSocket) server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
      return server;
    },
    bodyLimit: config.bodyLimit,
    genReqId: () => services.ids.uuid(),
    trustProxy: config.trustProxy ?? false,
    // Routes check their own ids and answer 404 for ones that cannot exist; the router's
    // default (100 characters, then 414) would answer a long made-up id differently.
    routerOptions: { maxParamLength: 2048 },
    // A URL the router cannot decode (a %-escape that is not UTF-8) is answered like any other
    // bad input, in the catalogue's shape, instead of Fastify's own body.
    frameworkErrors: (error: Error, request: FastifyRequest, reply: FastifyReply) => errorHandler(config.bodyLimit)(error, request, reply),
    // A JSON body with a `__proto__` or `constructor.prototype` key is refused (400), never
    // parsed: Fastify's defaults, stated so they cannot quietly change.
    onProtoPoisoning: 'error' as const,
    onConstructorPoisoning: 'error' as const,
    // Routes that answer at embed scale from memory say so (`config.quietRequestLog`): no
    // per-request info lines for them (server/http/quiet-routes.ts).
    logController: new QuietRoutesLogController(),
  };
  const app = options.loggerInstance ? Fastify({ ...common, loggerInstance: options.loggerInstance }) : Fastify({ ...common, logger });

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  app.decorate('clock', services.clock);
  app.decorate('ids', services.ids);
  app.setErrorHandler(errorHandler(config.bodyLimit));

  // First, so every route added after it gets its kind's headers (CSP, HSTS, nosniff, ...).
  const securityHeadersOf = await securityHeaders(app, config);
  await app.register(fastifyCookie);
  const hub = new LiveHub(db, app.log, services.store, options.liveRecheckMs, options.presenceTimings);
  app.decorate('liveHub', hub);
  // On close the hub says goodbye with 1012 ("restarting") so clients reconnect elsewhere.
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 }, preClose: () => hub.stop() });
  // A manual map's public page shows its published revision, folded through the snapshots (issue 27).
  const publishedHistory = await MapHistory.open(db, services.store);
  const publicMaps = new PublicMapCache({
    db,
    readPublished: publishedStateReader(publishedHistory),
    maxBytes: config.publicMapCacheBytes,
    renderer: options.viewerPage ?? ssrViewerPage({ clientDist: CLIENT_DIST, serverDist: SERVER_DIST, publicUrl: config.publicUrl, readFloor: floorReader(services.files, CLIENT_DIST) }),
    logger: app.log,
  });
  // Reactors are not projections (no read model, version or lag), but park events the same way.
  const reactors = [BILLING_REACTOR];
  const metrics = createMetrics({
    projectionLag: () => projectionLag(db, services.store, allProjections),
    projectionFaults: () => projectionFaults(db, allProjections),
    reactorFaults: () => reactorFaults(db, reactors),
    liveConnections: () => hub.connectionCount,
    publicMapCache: () => publicMaps.stats,
  });
  app.decorate('metrics', metrics);
  // Timed on the functions' routes only (a route hook each, given as they are added), so no
  // other answer pays for a hook that would not time it.
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/api/fn/')) return;
    const name = route.url === '/api/fn/:name' ? '' : route.url.slice('/api/fn/'.length);
    const fn = Object.hasOwn(functionPayloads, name) ? name : 'unknown';
    const timeCommand = (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      const outcome = reply.statusCode < 400 ? 'ok' : codeForStatus(reply.statusCode);
      metrics.commandDuration.observe({ function: fn, outcome }, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = [...(Array.isArray(route.onResponse) ? route.onResponse : route.onResponse ? [route.onResponse] : []), timeCommand];
  });
  app.addHook('onReady', () => hub.start());

  app.decorateRequest('principal', null);
  app.decorateRequest('correlationId', '');
  app.decorateRequest('mapAccess', null);
  // A callback hook, not an async one: it runs on every request and has nothing to await.
  app.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers['x-correlation-id'];
    request.correlationId = typeof header === 'string' && CORRELATION_ID.test(header) ? header : request.id;
    // Every log line of the request names the correlation id its events will carry.
    if (request.correlationId !== request.id) request.log = request.log.child({ correlationId: request.correlationId });
    done();
  });
  // Who is calling and what they may do: hooks each route (or scope) names, not URL-prefix branches here.
  app.decorateRequest('apiToken', null);
  const apiTokens = new ApiTokenAuth({
    db,
    now: () => services.clock.now(),
    principalOf: (uid) => services.auth.principalOfAccount(uid),
    onError: (error) => app.log.error({ err: error }, 'recording an API token’s last use failed'),
  });
  registerAccessHooks(app, accessHooks({ auth: services.auth, db, publicUrl: config.publicUrl, apiTokens }));
  useZodSchemas(app);
  await registerOpenApi(app, config.publicUrl);

  // NUL and lone surrogates are refused on every route, naming the field, before any handler.
  app.addHook('preValidation', refuseUnsafeText);

  app.decorate('publicMaps', publicMaps);
  // Listening before the first request: a notice missed in between would leave a map stale.
  app.addHook('onReady', () => publicMaps.start());
  app.addHook('onClose', () => publicMaps.stop());
  await publicMapRoutes(app, { db, cache: publicMaps, publicUrl: config.publicUrl });
  beforeRouting = publishedJsonNotModifiedFastPath(publicMaps, securityHeadersOf(pageKindOf(PUBLIC_MAP_JSON_ROUTE)));
  const insights = await InsightsCounter.open({
    db,
    clock: services.clock,
    flushMs: config.insights.flushMs,
    onError: (error) => app.log.error({ err: error }, 'writing the insights failed; kept for the next flush'),
  });
  app.decorate('insights', insights);
  // After the last request was answered (Fastify closes the server first): nothing counted is lost.
  app.addHook('onClose', () => insights.close().catch((error: unknown) => app.log.error({ err: error }, 'the last insights could not be written')));
  // Directions asked for, for webhooks that want directions.requested (server/webhooks/webhook-directions.ts).
  const directionsForWebhooks = new DirectionsBatcher();
  await publicInsightsRoutes(app, {
    cache: publicMaps,
    counter: insights,
    limiter: new BeaconLimiter(config.insights.beaconsPerMinute),
    onDirections: (mapId, locationId, count) => directionsForWebhooks.add(mapId, locationId, count),
  });
  // One street geocoder (GEOCODER_URL) for imports and visitors' searches: one rate limit and cache.
  const streetGeocoder = config.geocoder ? new RemoteGeocoder({ ...config.geocoder, userAgent: `Mapfold geocoding (${config.publicUrl})` }) : null;
  // A store locator's "near …" search (issue 29 item 4): the gazetteer in a worker of its own.
  const placeSearcher = options.placeSearcher ?? new WorkerPlaceSearcher();
  if (!options.placeSearcher) app.addHook('onClose', () => placeSearcher.close());
  await placeSearchRoutes(app, {
    db,
    cache: publicMaps,
    searcher: placeSearcher,
    limiter: new BeaconLimiter(PLACE_SEARCHES_PER_MINUTE),
    geocoder: streetGeocoder,
    onGeocoderError: (error) => app.log.warn({ err: error }, 'the street geocoder could not answer a place search; the embedded one did'),
  });
  await seoRoutes(app, config);
  // The API's reference page, from the OpenAPI document (issue 30 item 1).
  await apiDocsRoutes(app, config.publicUrl);
  // The basemap of geographic maps: its style and the embedded archive, read by Range (issue 29).
  await basemapRoutes(app, { config });
  await app.register(async (api) => {
    // The API's JSON over a kilobyte goes out compressed (per request, cheap settings). Only
    // here: published maps and the built files come compressed once already, and the live
    // socket is no reply to compress.
    await api.register(fastifyCompress, { encodings: ['br', 'gzip'], threshold: 1024 });
    // Every write to the API and the local test Stripe's pages must come from this site's pages.
    api.addHook('onRequest', app.access.sameSiteWrites);
    const history = await MapHistory.open(db, services.store);
    // Billing's own routes (Stripe's webhook, the local test Stripe) answer Stripe, not a person.
    const billing = await setUpBilling(api, services, history, options.reactorRetry ? { retry: options.reactorRetry } : {});
    app.decorate('billingReactor', billing.reactor);
    // Outbound webhooks (issue 30 item 2): the reactor into the outbox, and the worker that sends it.
    const webhooks = await setUpWebhooks(app, services, directionsForWebhooks, options.reactorRetry ? { retry: options.reactorRetry } : {});
    // Scheduled publishes (issue 27): every process may run one, each schedule is published once.
    const scheduler = new PublishScheduler({ deps: { store: services.store, db, ids: services.ids, history }, clock: services.clock, logger: app.log });
    app.decorate('publishScheduler', scheduler);
    app.addHook('onReady', () => scheduler.start());
    app.addHook('onClose', () => scheduler.stop());
    // Maps' data sources (issue 30 item 4): synced through the import pipeline the import routes make.
    // ALLOW_LOOPBACK_TARGETS=1 (as for webhooks): sources on this machine too (tests).
    const mapSync = new MapSync({ allowLoopback: config.allowLoopbackTargets });
    // Scheduled syncs (hourly, daily): every process may run one, each due sync is run once.
    const syncScheduler = new SyncScheduler({ deps: { store: services.store, db, ids: services.ids, history }, mapSync, clock: services.clock, logger: app.log, mailer: services.mailer, publicUrl: config.publicUrl });
    app.decorate('syncScheduler', syncScheduler);
    app.addHook('onReady', () => syncScheduler.start());
    app.addHook('onClose', () => syncScheduler.stop());
    await api.register(async (product) => {
      // The product's API reads who is calling; each route then says what it requires.
      product.addHook('onRequest', app.access.identify);
      // A request made with an API token reaches only what its scopes open (server/auth/api-token-auth.ts).
      product.addHook('onRequest', requireTokenScope);
      // Each API token has its own budget, with the x-ratelimit-* headers on every answer and
      // Retry-After on a 429 in the catalogue's shape; sessions are limited elsewhere.
      // Counted per process (API_TOKEN_REQUESTS_PER_MINUTE, 600 by default).
      await product.register(fastifyRateLimit, {
        global: true,
        hook: 'preParsing',
        max: config.apiTokenRequestsPerMinute,
        timeWindow: 60_000,
        allowList: (request) => request.apiToken === null,
        keyGenerator: (request) => `api-token:${request.apiToken?.tokenId ?? ''}`,
        errorResponseBuilder: (_request, context) =>
          new DomainError('resource-exhausted', `Too many requests with this API token: at most ${context.max} a minute. Try again in ${context.after}.`),
      });
      const viewLinkKeys = await ViewLinkKeys.open(db);
      // Per-account limits on the functions, added to each function route as it is declared.
      functionCallLimits(product, { now: () => services.clock.now().getTime(), ...(options.functionCallLimit ? { limit: options.functionCallLimit } : {}) });
      await functionRoutes(product, {
        ...billing.deps,
        mailer: services.mailer,
        onMailError: (error) => app.log.error({ err: error }, 'sending a mention notice failed'),
        viewLinkKeys,
        rateLimiter: services.rateLimiter,
        webhooks,
        mapSync,
        syncLog: app.log,
      });
      const builtFloor = floorReader(services.files, CLIENT_DIST);
      const sourceFloor = floorReader(services.files, CLIENT_PUBLIC);
      await queryRoutes(product, db, async (url) => (await builtFloor(url)) ?? (await sourceFloor(url)), () => services.clock.now());
      await mapSetAsideRoutes(product, db);
      await apiTokenRoutes(product, db);
      await commentRoutes(product, db);
      await sharingRoutes(product, { db, viewLinkKeys, publicUrl: config.publicUrl, people: peopleDirectory(db, services.localAccounts !== null) });
      await historyRoutes(product, db, history);
      await publicationRoutes(product, db, history);
      await insightsReportRoutes(product, { db, counter: insights, today: () => services.clock.now() });
      await adminRoutes(product, db);
      await authRoutes(product, services);
      await contactRoutes(product, services);
      await fileRoutes(product, {
        files: services.files,
        uploadLimit: config.uploadLimit,
        rateLimiter: services.rateLimiter,
        ...(options.remoteFiles ? { remote: options.remoteFiles } : {}),
      });
      await importRoutes(product, {
        db,
        store: services.store,
        ids: services.ids,
        history,
        files: services.files,
        importLimit: config.importLimit,
        rateLimiter: services.rateLimiter,
        ...(streetGeocoder ? { geocoder: streetGeocoder } : {}),
        publicUrl: config.publicUrl,
        onDeps: (deps) => mapSync.attach(deps),
      });
      await syncRoutes(product, mapSync, history, db);
      await templateRoutes(product, { files: services.files, rateLimiter: services.rateLimiter });
      await clientConfigRoutes(product, config);
      if (services.outbox) await devOutboxRoutes(product, services.outbox, { behindProxy: config.trustProxy !== null });
      product.get('/api/live', { websocket: true, schema: { hide: true } }, (socket, request) => {
        // Another site's page must not ride the visitor's cookie into their live data.
        if (!isSameOrigin(request.headers.origin, request.headers.host, config.publicUrl)) {
          socket.close(CLOSE_FORBIDDEN_ORIGIN, 'Origin not allowed');
          return;
        }
        // A page of another protocol version (loaded before an update) is told to reload: a
        // version-1 page names none, and could not read a version-2 welcome anyway.
        const version = (request.query as Record<string, unknown> | undefined)?.[LIVE_PROTOCOL_QUERY];
        if (version !== String(LIVE_PROTOCOL_VERSION)) {
          socket.close(CLOSE_OUTDATED_CLIENT, OUTDATED_CLIENT_REASON);
          return;
        }
        const clerk = services.clerk;
        if (clerk) {
          // Browsers cannot put headers on a websocket: the token comes in an `auth` message.
          hub.attach(socket, null, { verifyToken: (token) => clerk.verify(token) });
          return;
        }
        if (!request.principal) {
          socket.close(CLOSE_UNAUTHENTICATED, 'Unauthenticated');
          return;
        }
        const { headers, cookies } = request;
        hub.attach(socket, request.principal, { recheck: () => services.auth.principalFor({ headers, cookies }) });
      });
    });
    // Health, readiness and metrics answer probes, which carry no session.
    await opsRoutes(api, { db, store: services.store, projections: allProjections, reactors, metrics, config });
  });

  const hasClient = existsSync(path.join(CLIENT_DIST, 'index.html'));
  if (hasClient) {
    // wildcard: files are looked up per request, so a rebuilt client is served without a restart.
    // preCompressed: the build's .br/.gz copies (scripts/precompress-plugin.ts) by Accept-Encoding.
    await app.register(fastifyStatic, {
      root: CLIENT_DIST,
      wildcard: true,
      // Not index.html for `/`: the landing page is prerendered (the not-found handler below).
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        const file = path.relative(CLIENT_DIST, filePath);
        reply.header('cache-control', staticCacheControl(file));
        // The embed SDK is loaded by other sites' pages (`<script src>`): not same-origin only.
        if (/^embed\.js(\.br|\.gz)?$/.test(file)) reply.header('cross-origin-resource-policy', 'cross-origin');
      },
    });
  }
  // A marketing page prerendered at build time is painted before its script; any other
  // page starts from the app's empty shell.
  const sendPage = (request: FastifyRequest, reply: FastifyReply) =>
    reply.type('text/html').sendFile(findPrerenderedPage(CLIENT_DIST, request.url) ?? 'index.html');
  if (hasClient) {
    // `/` is a page, not the build folder: left to the static wildcard it is a directory, which
    // @fastify/send refuses with 403 unless a compressed copy was negotiated first (then it
    // falls through to the not-found handler), so curl and uptime probes, which send no
    // Accept-Encoding, got a 403 where browsers got the landing page.
    app.get('/', { schema: { hide: true } }, sendPage);
  }
  // Every non-API GET is a client route: the React router decides, including its 404 page.
  app.setNotFoundHandler((request, reply) => {
    // A missing asset is a 404, not the app's HTML (which a browser would try to run as a script).
    if (request.method === 'GET' && !request.url.startsWith('/api/') && !request.url.startsWith('/assets/') && hasClient) {
      return sendPage(request, reply);
    }
    return sendError(reply, { code: 'not-found', message: `Not found: ${request.method} ${request.url.split('?')[0]}` });
  });

  return app;
}

