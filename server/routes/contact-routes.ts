/**
 * `POST /api/contact` (the /contact page): open to everyone, signed in or not. Body `{data}`,
 * answer `{result: {messageId}}`. Cross-site posts are refused by the app's CSRF hook before
 * this runs, as for every other write.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { receiveContactMessage } from '../contact/contact-service.js';

export async function contactRoutes(app: FastifyInstance, services: Services): Promise<void> {
  app.post('/api/contact', async (request) => {
    const body = request.body as { data?: unknown } | null | undefined;
    const data = body && typeof body === 'object' ? (body.data ?? {}) : {};
    const result = await receiveContactMessage(
      {
        store: services.store,
        mailer: services.mailer,
        rateLimiter: services.rateLimiter,
        clock: services.clock,
        ids: services.ids,
        teamEmail: services.config.contactEmail,
        log: request.log,
      },
      data,
      { ip: request.ip, principal: request.principal, correlationId: request.correlationId },
    );
    return { result };
  });
}
