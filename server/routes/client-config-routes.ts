/**
 * `GET /api/client-config`: the run-time settings of the client (events/client-config.ts). The
 * PostHog project key is public by design (it can only send events), so it may be served; the
 * licence mode says only whether codes are checked, never the marketplace token.
 */
import type { FastifyInstance } from 'fastify';
import { ClientConfig } from '../../events/client-config.js';
import { resultOf } from '../../events/http-api.js';
import type { Config } from '../config.js';
import { typed } from '../http/zod-routes.js';

export async function clientConfigRoutes(app: FastifyInstance, config: Pick<Config, 'posthog' | 'envato'>): Promise<void> {
  // Parsed once at start-up: a bad value fails the start, not a visitor's page.
  const body = { result: ClientConfig.parse({ analytics: { posthog: config.posthog }, licences: { mode: config.envato.mode } }) };
  typed(app).get('/api/client-config', { schema: { tags: ['config'], response: { 200: resultOf(ClientConfig) } } }, async (_request, reply) => {
    // Short caching: a changed key reaches visitors within minutes, without a request per page.
    reply.header('cache-control', 'public, max-age=300');
    return body;
  });
}
