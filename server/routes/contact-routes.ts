/**
 * `POST /api/contact` (the /contact page): open to everyone, signed in or not. Body `{data}`,
 * answer `{result: {messageId}}`. Cross-site posts are refused by the app's CSRF hook before
 * this runs, as for every other write.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ContactReceipt } from '../../events/contact.js';
import { ErrorBody } from '../../events/function-results.js';
import { resultOf } from '../../events/http-api.js';
import { typed } from '../http/zod-routes.js';
import type { Services } from '../services.js';
import { receiveContactMessage } from '../contact/contact-service.js';

export async function contactRoutes(app: FastifyInstance, services: Services): Promise<void> {
  // The fields are checked by the contact service (with its spam rules), which names each one.
  const schema = { tags: ['contact'], body: z.object({ data: z.unknown() }).partial(), response: { 200: resultOf(ContactReceipt), '4xx': ErrorBody } };
  typed(app).post('/api/contact', { schema }, async (request) => {
    const data = request.body?.data ?? {};
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
