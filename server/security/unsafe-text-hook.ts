/**
 * One hook, on every route, before any handler or schema runs: a request whose parameters,
 * query or body hold NUL or an unpaired surrogate is refused with invalid-argument naming the
 * field, instead of reaching PostgreSQL (which refuses such text: a 500) or being stored
 * silently mangled. Routes need not remember it; see events/safe-text.ts for the check.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../../events/errors.js';
import { unsafeTextMessage } from '../../events/safe-text.js';

/** A callback hook, not an async one: it runs on every request and has nothing to await. */
export function refuseUnsafeText(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void {
  // Parameters and query fields are named alone; body paths start at the body ("data.title").
  const message =
    unsafeTextMessage(request.params, 'URL') ?? unsafeTextMessage(request.query, 'Query string') ?? unsafeTextMessage(request.body, 'Request body');
  done(message ? new DomainError('invalid-argument', message) : undefined);
}

/**
 * The same refusal for the URL alone, for routes that act before the body is read (a file
 * route's preParsing: who may send, before megabytes arrive): the database never sees a NUL.
 */
export async function refuseUnsafeUrlText(request: FastifyRequest): Promise<void> {
  const message = unsafeTextMessage(request.params, 'URL') ?? unsafeTextMessage(request.query, 'Query string');
  if (message) throw new DomainError('invalid-argument', message);
}
