/**
 * Numbers for a map's owner (issue 19, part 4).
 *
 * `POST /api/public/maps/:id/insights`: the public viewer's beacon, the counters of one page
 * (events/insights.ts). Public and unauthenticated: it never reads who is calling (no cookie,
 * no session is looked at) and stores nothing about them, not their address either
 * (insights/beacon-limiter.ts). Counted for published maps only: a test map is answered like a
 * map that does not exist, as `GET /api/public/maps/:id` answers strangers, so its existence is
 * not revealed, and its owner's own looks are not counted. Whether a map is published comes
 * from the published-map cache, so a beacon costs no database read. Answers 204 once counted;
 * opens of and directions to hidden locations are not counted (the same 204).
 *
 * `GET /api/maps/:id/insights?from=&to=&format=csv`: the report, for whoever may edit the map
 * (owner, editors, admins: events/map-access.ts `edit`); viewers, link holders and strangers
 * are refused as the policy says (403), the signed-out with 401.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import { ErrorBody } from '../../events/function-results.js';
import { FileText, MapIdParams, resultOf } from '../../events/http-api.js';
import { addDays, countedRows, dayOf, InsightBeacon, InsightsQuery, InsightsReport, REPORT_DAYS_MAX } from '../../events/insights.js';
import { mapAccessHook } from '../access/map-access-hook.js';
import type { Queryable } from '../../ports/database.js';
import { requirePrincipal } from '../http/access-hooks.js';
import { typed } from '../http/zod-routes.js';
import type { BeaconLimiter } from '../insights/beacon-limiter.js';
import type { InsightsCounter } from '../insights/insights-counter.js';
import { insightsCsv, insightsReport } from '../insights/insights-report.js';
import type { PublicMapCache } from '../public-maps/public-map-cache.js';

const NOT_FOUND = 'Map not found.';
const MAP_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** The default range: the last 30 days, today included. */
const DEFAULT_DAYS = 30;

export interface PublicInsightsOptions {
  cache: PublicMapCache;
  counter: InsightsCounter;
  limiter: BeaconLimiter;
  /** Told of each directions counter counted (outbound webhooks' directions.requested: server/webhooks/webhook-directions.ts). */
  onDirections?(mapId: string, locationId: string, count: number): void;
}

export async function publicInsightsRoutes(scope: FastifyInstance, { cache, counter, limiter, onDirections }: PublicInsightsOptions): Promise<void> {
  typed(scope).post(
    '/api/public/maps/:id/insights',
    {
      // Another site's page must not count visits through its visitors' browsers.
      onRequest: [scope.access.sameSiteWrites],
      // Thousands a second at busy times: two info lines each would drown the log (and cost the
      // public map's latency its share of the CPU); refusals and errors are still logged.
      logLevel: 'warn',
      schema: {
        tags: ['public'],
        params: MapIdParams,
        body: InsightBeacon,
        response: { 204: z.undefined().describe('Counted'), '4xx': ErrorBody },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      reply.header('cache-control', 'no-store');
      // Before the map is looked up: a flood of made-up ids costs no more than a real one.
      if (!limiter.take(request.ip)) throw new DomainError('resource-exhausted', 'Too many insight reports. Please wait a minute.');
      if (!MAP_ID.test(id)) throw new DomainError('not-found', NOT_FOUND);
      const found = await cache.json(id);
      if (found.kind !== 'published') throw new DomainError('not-found', NOT_FOUND);
      // A hidden location is not counted, and the answer is the same as for any other id, so a
      // beacon tells nobody which ids are hidden ones (events/visitor-document.ts).
      const hidden = found.body.hiddenLocations;
      for (const counted of request.body.data.counters) {
        if (hidden && 'location' in counted && hidden.has(counted.location)) continue;
        for (const row of countedRows(counted)) counter.add(id, row.kind, row.key, row.count);
        if (counted.kind === 'directions') onDirections?.(id, counted.location, counted.count);
      }
      return reply.status(204).send();
    },
  );
}

export interface InsightsReportOptions {
  db: Queryable;
  counter: InsightsCounter;
  today: () => Date;
}

const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

export async function insightsReportRoutes(scope: FastifyInstance, { db, counter, today }: InsightsReportOptions): Promise<void> {
  typed(scope).get(
    '/api/maps/:id/insights',
    {
      schema: { tags: ['insights'], params: MapIdParams, querystring: InsightsQuery, response: { 200: z.union([resultOf(InsightsReport), FileText]), '4xx': ErrorBody } },
      preValidation: [scope.access.signedIn],
      // Owners and editors (and admins), as the access policy says: the numbers are for those who shape the map.
      preHandler: [mapAccessHook(db, 'edit')],
    },
    async (request, reply) => {
      requirePrincipal(request);
      const to = request.query.to ?? dayOf(today());
      const from = request.query.from ?? addDays(to, -(DEFAULT_DAYS - 1));
      if (from > to) throw new DomainError('invalid-argument', 'from: must not be after to');
      if (from < addDays(to, -(REPORT_DAYS_MAX - 1))) throw new DomainError('invalid-argument', `from: the range must be at most ${REPORT_DAYS_MAX} days`);
      // What this process counted and has not written yet is part of the answer.
      await counter.flush().catch(() => {});
      const { id } = request.params;
      if (request.query.format === 'csv') {
        reply.header('content-disposition', attachment(`insights-${id}-${from}-to-${to}.csv`)).type('text/csv; charset=utf-8');
        // Streamed, page by page (insights-report.ts): a flooded map's CSV holds no request back.
        return reply.send(Readable.from(insightsCsv(db, id, from, to)) as never);
      }
      return { result: await insightsReport(db, id, from, to) };
    },
  );
}
