/**
 * Which of two copies of one Stripe subscription is the newer, so that webhooks delivered
 * late, twice or out of order, with or without a successful re-read from Stripe, all end in
 * the same state: an older copy never overwrites a newer one, whichever arrives last.
 *
 * Stripe gives a subscription no version, so the order comes from what it does give,
 * strongest first:
 *
 * 1. The status's phase. A subscription starts `incomplete` (or live at once), lives as
 *    `trialing`, `active`, `past_due`, `unpaid` or `paused`, and ends `canceled` or
 *    `incomplete_expired`, which it never leaves. A copy of a later phase is the newer
 *    whatever the dates say: a cancelled subscription never comes back active.
 * 2. The date, on Stripe's clock only (ours is never compared with it). A copy inside an event
 *    is as of the event's `created`. A copy re-read from Stripe is Stripe's state at the moment
 *    of reading, which came after the event that led to the re-read arrived, and after every
 *    copy already recorded for the customer arrived (one reactor handles one event at a time,
 *    in order): so a re-read replaces the recorded copy, and is dated the later of its event's
 *    `created` and the recorded copy's date. An event's copy replaces the recorded one only
 *    when Stripe dated it later.
 *    A re-read can be newer than that date: an event dated in between whose own re-read fails
 *    then puts its (older) copy back for a while, until the newest event about the
 *    subscription is handled, whose copy or re-read wins over every other. So the end state is
 *    always Stripe's latest, whatever the order.
 * 3. The same second. Stripe dates events to the second, so two of one second are not ordered
 *    by date. A re-read wins over an event's copy of the same second (it was read after that
 *    event arrived). Between two events' copies: the later current period end, then a fixed
 *    rule on the content, so that every delivery order picks the same one.
 *
 * Copies recorded before copies were dated (older events) carry no origin: the first dated
 * copy replaces them, as every copy did then.
 */
import { z } from 'zod';
import type { SubscriptionView } from './billing-api.js';

/** Where a copy of a subscription came from and as of when (see above). */
export const CopyOrigin = z.object({
  /** Stripe's `created` (Unix seconds) of the event the copy came with or was re-read for. */
  created: z.number().int(),
  /** `event`: the copy inside the event; `stripe`: re-read from Stripe while handling it. */
  source: z.enum(['event', 'stripe']),
});
export type CopyOrigin = z.infer<typeof CopyOrigin>;

export interface SubscriptionCopy {
  view: SubscriptionView;
  origin: CopyOrigin;
}

const ENDED: readonly string[] = ['canceled', 'incomplete_expired'];

/** 0 before it ever started, 1 while it lives, 2 once it ended for good. */
export function phaseOf(status: string): 0 | 1 | 2 {
  if (ENDED.includes(status)) return 2;
  return status === 'incomplete' ? 0 : 1;
}

/** True when `incoming` is newer than the `recorded` copy of the same subscription. */
export function isNewerCopy(incoming: SubscriptionCopy, recorded: { view: SubscriptionView; origin: CopyOrigin | null }): boolean {
  const phase = phaseOf(incoming.view.status) - phaseOf(recorded.view.status);
  if (phase !== 0) return phase > 0;
  if (!recorded.origin) return true;
  if (incoming.origin.source === 'stripe') return true;
  if (incoming.origin.created !== recorded.origin.created) return incoming.origin.created > recorded.origin.created;
  if (recorded.origin.source === 'stripe') return false;
  const periodEnd = compareText(incoming.view.currentPeriodEnd ?? '', recorded.view.currentPeriodEnd ?? '');
  if (periodEnd !== 0) return periodEnd > 0;
  return compareText(canonical(incoming.view), canonical(recorded.view)) > 0;
}

/**
 * The origin the incoming copy is recorded with once it replaced `recorded`: a re-read is
 * dated no earlier than the copy it replaced.
 */
export function originAfter(incoming: CopyOrigin, recorded: CopyOrigin | null): CopyOrigin {
  if (incoming.source !== 'stripe' || !recorded) return incoming;
  return { created: Math.max(incoming.created, recorded.created), source: 'stripe' };
}

/** The same content, whatever order its keys came in (a database may reorder them). */
export function sameView(a: SubscriptionView, b: SubscriptionView): boolean {
  return canonical(a) === canonical(b);
}

function canonical(view: SubscriptionView): string {
  return JSON.stringify(view, Object.keys(view).sort());
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
