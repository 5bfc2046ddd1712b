/**
 * Routes without per-request log lines: a route whose config says `quietRequestLog: true` gets
 * neither Fastify's "incoming request" nor its "request completed" line. Those two lines cost
 * more than a published map's whole answer from memory (pino serialising the request and the
 * reply, twice per request), and at embed scale they would be most of the log.
 *
 * What still speaks for such a route: errors (the error handler logs every 5xx itself,
 * server/errors.ts), and the published-map cache's hits and misses in the metrics
 * (server/ops/metrics.ts). Not a per-route `logLevel`: that gives every request a logger of
 * another level, which pino builds afresh each time.
 */
import { LogController, type FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** No per-request info lines for this route's answers (server/http/quiet-routes.ts). */
    quietRequestLog?: boolean;
  }
}

export class QuietRoutesLogController extends LogController {
  override isLogDisabled(request: FastifyRequest): boolean {
    // A request without a route (a 404, a URL the router could not read) is never quiet.
    return request.routeOptions?.config?.quietRequestLog === true;
  }
}
