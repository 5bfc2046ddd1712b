/**
 * The contact form (/contact): what a visitor sends, the rules it must meet (shared by the
 * page, which checks before sending, and the server, which decides), the spam signals, and
 * the event that records a message on its own `contact-{id}` stream.
 */
import { z } from 'zod';
import type { Decider } from './decider.js';
import { streams } from './streams.js';

/** What a message can be about; `custom` is the footer's "Custom Work" (`/contact?topic=custom`). */
export const CONTACT_TOPICS = ['general', 'sales', 'billing', 'custom', 'support', 'partnership'] as const;
export type ContactTopic = (typeof CONTACT_TOPICS)[number];

export const CONTACT_TOPIC_LABELS: Record<ContactTopic, string> = {
  general: 'General question',
  sales: 'Sales & pricing',
  billing: 'Licences & billing',
  custom: 'Custom work',
  support: 'Support with a map',
  partnership: 'Partnership',
};

export const CONTACT_LIMITS = {
  nameMax: 100,
  emailMax: 254,
  messageMin: 10,
  messageMax: 5000,
  /** More links than this in one message is what link spam looks like. */
  linksMax: 3,
  /** A person needs longer than this to fill the form; a script posts at once. */
  minFillMs: 3000,
} as const;

/** The fields a person fills in; the page validates these before it sends. */
export const ContactFields = z.object({
  name: z
    .string({ error: 'Enter your name.' })
    .trim()
    .min(1, 'Enter your name.')
    .max(CONTACT_LIMITS.nameMax, `Keep your name under ${CONTACT_LIMITS.nameMax} characters.`),
  email: z
    .string({ error: 'Enter your e-mail address.' })
    .trim()
    .min(1, 'Enter your e-mail address.')
    .max(CONTACT_LIMITS.emailMax, 'That e-mail address is too long.')
    .pipe(z.email('Enter a valid e-mail address, like name@company.com.')),
  topic: z.enum(CONTACT_TOPICS, { error: 'Choose what your message is about.' }),
  message: z
    .string({ error: 'Write your message.' })
    .trim()
    .min(CONTACT_LIMITS.messageMin, `Tell us a little more: at least ${CONTACT_LIMITS.messageMin} characters.`)
    .max(CONTACT_LIMITS.messageMax, `Keep your message under ${CONTACT_LIMITS.messageMax} characters.`)
    .refine((text) => countLinks(text) <= CONTACT_LIMITS.linksMax, `Please include at most ${CONTACT_LIMITS.linksMax} links.`),
});
export type ContactFields = z.infer<typeof ContactFields>;
export type ContactField = keyof ContactFields;
export const CONTACT_FIELDS = Object.keys(ContactFields.shape) as ContactField[];

/**
 * The body of `POST /api/contact`: the fields plus the spam-protection signals. `website` is
 * the honeypot (hidden from people, so only a bot fills it); `renderedAt` and `sentAt` are
 * the client's clock when the form appeared and when it was sent (one clock, so their
 * difference means something even when the client's clock is off).
 */
export const ContactRequest = ContactFields.extend({
  website: z.string().max(500).default(''),
  renderedAt: z.number({ error: 'Missing form timing.' }).int().nonnegative(),
  sentAt: z.number({ error: 'Missing form timing.' }).int().nonnegative(),
});
export type ContactRequest = z.infer<typeof ContactRequest>;
export type ContactRequestInput = z.input<typeof ContactRequest>;

/** What the server answers when a message was taken. */
export const ContactReceipt = z.object({ messageId: z.string().min(1) });
export type ContactReceipt = z.infer<typeof ContactReceipt>;

/** What bots and people can both see when a message was refused as spam: nothing to learn from. */
export const SPAM_REFUSED_MESSAGE = 'We could not send your message. Please wait a moment and try again, or e-mail us instead.';

/** Counts web links (http(s)://, www., or HTML/BBCode link markup) in a message. */
export function countLinks(text: string): number {
  return text.match(/https?:\/\/|www\.|<a\s|\[url/gi)?.length ?? 0;
}

/** Why a request looks like a bot, or null when it looks like a person. */
export function spamSignal(request: Pick<ContactRequest, 'website' | 'renderedAt' | 'sentAt'>): 'honeypot' | 'too-fast' | null {
  if (request.website.trim() !== '') return 'honeypot';
  if (request.sentAt - request.renderedAt < CONTACT_LIMITS.minFillMs) return 'too-fast';
  return null;
}

export const CONTACT_MESSAGE_RECEIVED = 'ContactMessageReceived';

/** A visitor's message reached the team (recorded before it is mailed). */
export const ContactMessageReceived = z.object({
  messageId: z.string().min(1),
  name: z.string(),
  email: z.string(),
  topic: z.enum(CONTACT_TOPICS),
  message: z.string(),
  /** The sender's account when they were signed in. */
  uid: z.string().nullable(),
});
export type ContactMessageReceived = z.infer<typeof ContactMessageReceived>;

/** The recorded event: its type and the message ({@link ContactMessageReceived}). */
export const ContactEvent = z.object({ type: z.literal(CONTACT_MESSAGE_RECEIVED), data: ContactMessageReceived });
export type ContactEvent = z.infer<typeof ContactEvent>;

/** Record a message the server took (validated, not spam, within the sender's allowance). */
export interface ReceiveContactMessage {
  type: 'ReceiveContactMessage';
  data: ContactMessageReceived;
}

/** A message's stream: whether it is recorded (a message is recorded once). */
export interface ContactState {
  received: boolean;
}

/** A contact message as the command handler takes it: stream `contact-{messageId}`, read with {@link ContactEvent}. */
export const contactDecider: Decider<ReceiveContactMessage, ContactEvent, ContactState, void> = {
  name: 'contact',
  streamId: streams.contact,
  schema: ContactEvent,
  eventTypes: new Set([CONTACT_MESSAGE_RECEIVED]),
  initialState: { received: false },
  evolve: () => ({ received: true }),
  decide: (command, state) => (state.received ? [] : [{ type: CONTACT_MESSAGE_RECEIVED, data: command.data }]),
};
