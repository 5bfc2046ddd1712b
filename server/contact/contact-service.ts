/**
 * Takes one contact-form message: validate, refuse bots, count against the sender's address,
 * record `ContactMessageReceived` on its own stream, then mail the team. Validation and the
 * spam check come first so that neither a typo nor a bot uses up a person's allowance.
 */
import {
  contactDecider,
  ContactMessageReceived,
  ContactRequest,
  SPAM_REFUSED_MESSAGE,
  spamSignal,
  type ContactReceipt,
} from '../../events/contact.js';
import { DomainError } from '../../events/errors.js';
import type { Principal } from '../../events/principal.js';
import type { Clock, IdGenerator } from '../clock.js';
import type { EventStore } from '../../ports/event-store.js';
import { decideCommand } from '../commands/command-handler.js';
import { contactMail } from '../mail/contact-mail.js';
import type { Mailer } from '../mail/mailer.js';
import type { Limit, RateLimiter } from '../security/rate-limiter.js';
import { CONTACT_PER_IP } from './contact-limits.js';

export interface ContactServiceDeps {
  store: EventStore;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  clock: Clock;
  ids: IdGenerator;
  /** The team's address (CONTACT_EMAIL). */
  teamEmail: string;
  perIp?: Limit;
  log: {
    warn(details: object, message: string): void;
    error(details: object, message: string): void;
  };
}

export interface ContactSender {
  /** The client's address, as the proxy settings make it out (rate limits count by it). */
  ip: string;
  principal: Principal | null;
  correlationId: string;
}

export async function receiveContactMessage(deps: ContactServiceDeps, body: unknown, sender: ContactSender): Promise<ContactReceipt> {
  const request = ContactRequest.parse(body);

  const signal = spamSignal(request);
  if (signal) {
    // Logged without the message: a bot's text is not worth keeping, a person's is not ours to.
    deps.log.warn({ signal, ip: sender.ip }, 'contact message refused as spam');
    throw new DomainError('invalid-argument', SPAM_REFUSED_MESSAGE);
  }

  await deps.rateLimiter.hit('contact-ip', deps.perIp ?? CONTACT_PER_IP, [sender.ip]);

  const now = deps.clock.now();
  const messageId = deps.ids.uuid();
  const data: ContactMessageReceived = ContactMessageReceived.parse({
    messageId,
    name: request.name,
    email: request.email,
    topic: request.topic,
    message: request.message,
    uid: sender.principal?.uid ?? null,
  });
  await decideCommand(deps, contactDecider, messageId, { type: 'ReceiveContactMessage', data }, undefined, {
    principal: sender.principal,
    now,
    correlationId: sender.correlationId,
    commandId: messageId,
  });

  try {
    await deps.mailer.send(contactMail(deps.teamEmail, data, now));
  } catch (error) {
    // The message is recorded (its stream names it), so the team can still read and answer
    // it; the visitor is not asked to send it twice.
    deps.log.error({ err: error, messageId }, 'mailing a contact message to the team failed');
  }
  return { messageId };
}
