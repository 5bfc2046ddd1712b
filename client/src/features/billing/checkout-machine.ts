/**
 * The checkout flow (spec §4): "the user presses Subscribe, the button goes into loading, and
 * a session document is written. When a url arrives, the browser goes there. When an error
 * arrives, loading stops. If the write fails, the card shows 'Error: something happened.'"
 *
 *   idle ──SUBSCRIBE──▶ requesting (startCheckout) ──{sessionId}──▶ waiting ──url──▶ redirecting
 *     ▲                      │ fails: CHECKOUT_FAILED_MESSAGE         │ error / timeout
 *     └──────────────────────┴────────────────────────────────────────┘
 *
 * The session's url or error reaches the machine as SESSIONS events: the card forwards every
 * `billing:{uid}` snapshot's checkout sessions, and the machine keeps the latest, so a snapshot
 * that arrives before startCheckout has answered is not lost. One machine per plan card.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { BillingInterval, CheckoutSessionView, PlanId } from '../../../../events/billing-api';
import { browser } from '../../lib/browser';
import { startCheckout } from './billing-api';

/** What the card shows when the checkout request itself fails (spec §8, word for word). */
export const CHECKOUT_FAILED_MESSAGE = 'Error: something happened.';

/** How long to wait for the server to answer with the session's url before giving up. */
export const CHECKOUT_WAIT_MS = 60_000;

export const CHECKOUT_TIMEOUT_MESSAGE = 'Checkout is taking too long to open. Please try again.';

/** A failed session without a message of its own. */
const SESSION_FAILED_MESSAGE = 'Checkout could not be started. Please try again.';

export interface CheckoutOrder {
  plan: PlanId;
  interval: BillingInterval;
  quantity: number;
}

export interface CheckoutContext {
  order: CheckoutOrder | null;
  /** The session this machine waits for (startCheckout's answer). */
  sessionId: string | null;
  /** The latest checkout sessions of `billing:{uid}`. */
  sessions: readonly CheckoutSessionView[];
  url: string | null;
  error: string | null;
}

export type CheckoutEvent =
  | ({ type: 'SUBSCRIBE' } & CheckoutOrder)
  | { type: 'SESSIONS'; sessions: readonly CheckoutSessionView[] }
  /** Clears a shown error (the person changed the order). */
  | { type: 'DISMISS' };

function ourSession(context: CheckoutContext): CheckoutSessionView | null {
  return context.sessions.find((session) => session.id === context.sessionId) ?? null;
}

export const checkoutMachine = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
  },
  actors: {
    startCheckout: fromPromise<{ sessionId: string }, CheckoutOrder>(async ({ input }) => (await startCheckout(input)).result),
  },
  actions: {
    /** Leaves for Stripe Checkout; a new history entry, so Back returns to the plans. */
    goToUrl: (_, params: { url: string }) => browser.assignLocation(params.url),
  },
  guards: {
    sessionReady: ({ context }) => Boolean(ourSession(context)?.url),
    sessionFailed: ({ context }) => {
      const session = ourSession(context);
      return session?.status === 'failed' || (session !== null && session.error !== null);
    },
  },
  delays: {
    checkoutWait: CHECKOUT_WAIT_MS,
  },
}).createMachine({
  id: 'checkout',
  context: { order: null, sessionId: null, sessions: [], url: null, error: null },
  on: {
    // Kept in every state, so waiting can look at what arrived while the request was out.
    SESSIONS: { actions: assign({ sessions: ({ event }) => event.sessions }) },
  },
  initial: 'idle',
  states: {
    idle: {
      on: {
        SUBSCRIBE: {
          target: 'requesting',
          actions: assign({
            order: ({ event }) => ({ plan: event.plan, interval: event.interval, quantity: event.quantity }),
            sessionId: null,
            url: null,
            error: null,
          }),
        },
        DISMISS: { actions: assign({ error: null }) },
      },
    },
    requesting: {
      invoke: {
        src: 'startCheckout',
        input: ({ context }) => context.order!,
        onDone: { target: 'waiting', actions: assign({ sessionId: ({ event }) => event.output.sessionId }) },
        onError: { target: 'idle', actions: assign({ error: CHECKOUT_FAILED_MESSAGE }) },
      },
    },
    waiting: {
      always: [
        { guard: 'sessionReady', target: 'redirecting', actions: assign({ url: ({ context }) => ourSession(context)!.url }) },
        { guard: 'sessionFailed', target: 'idle', actions: assign({ error: ({ context }) => ourSession(context)?.error ?? SESSION_FAILED_MESSAGE }) },
      ],
      after: {
        checkoutWait: { target: 'idle', actions: assign({ error: CHECKOUT_TIMEOUT_MESSAGE }) },
      },
    },
    redirecting: {
      // Stays busy: the page is about to be replaced by Stripe's.
      entry: { type: 'goToUrl', params: ({ context }) => ({ url: context.url! }) },
    },
  },
});

/** Whether the Subscribe button shows 'Starting...'. */
export const isCheckoutBusy = (state: { matches(value: 'requesting' | 'waiting' | 'redirecting'): boolean }) =>
  state.matches('requesting') || state.matches('waiting') || state.matches('redirecting');
