/**
 * Which user a Stripe customer belongs to, read from and decided on the customer's own stream
 * (events/stripe-customer.ts). Read from the event store rather than a read model, so a
 * binding made by the previous webhook is seen at once, whatever a projection's lag.
 */
import {
  evolveStripeCustomer,
  initialStripeCustomerState,
  stripeCustomerDecider,
  StripeCustomerEvent,
  type ClaimStripeCustomer,
  type StripeCustomerState,
} from '../../events/stripe-customer.js';
import { streams } from '../../events/streams.js';
import type { IdGenerator } from '../clock.js';
import { handleCommand, type CommandMetadata } from '../commands/command-handler.js';
import type { EventStore } from '../../ports/event-store.js';

export interface ClaimOutcome {
  /** The user the customer belongs to after the claim. */
  owner: string;
  /** True when it belongs to another user than the claim's: the claim was refused. */
  refused: boolean;
}

/** Claims the Stripe customer for a user: binds it on the first claim, refuses a claim for anyone else after. */
export async function claimStripeCustomer(
  deps: { store: EventStore; ids: IdGenerator },
  claim: ClaimStripeCustomer['data'],
  meta: CommandMetadata,
): Promise<ClaimOutcome> {
  let seen: StripeCustomerState = initialStripeCustomerState;
  const command: ClaimStripeCustomer = { type: 'ClaimStripeCustomer', data: claim };
  const outcome = await handleCommand(
    deps,
    stripeCustomerDecider,
    claim.customerId,
    (state) => {
      seen = state;
      return stripeCustomerDecider.decide(command, state, { now: meta.now });
    },
    meta,
  );
  const owner = outcome.events.reduce(evolveStripeCustomer, seen).uid ?? claim.uid;
  return { owner, refused: owner !== claim.uid };
}

/** The user the Stripe customer belongs to, or null when no event has claimed it yet. */
export async function uidOfCustomer(store: EventStore, customerId: string): Promise<string | null> {
  const recorded = await store.readStream(streams.stripeCustomer(customerId));
  let state = initialStripeCustomerState;
  for (const event of recorded) {
    const parsed = StripeCustomerEvent.safeParse({ type: event.type, data: event.data });
    if (parsed.success) state = evolveStripeCustomer(state, parsed.data);
  }
  return state.uid;
}
