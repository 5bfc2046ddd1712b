/**
 * The checkout machine on its own (spec §4 checkout flow): its request replaced by a
 * fromPromise actor the test controls, the session's progress fed as SESSIONS events, and the
 * browser's navigation spied on.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { CheckoutSessionView } from '../../events/billing-api';
import {
  CHECKOUT_FAILED_MESSAGE,
  CHECKOUT_TIMEOUT_MESSAGE,
  CHECKOUT_WAIT_MS,
  checkoutMachine,
  isCheckoutBusy,
} from '../../client/src/features/billing/checkout-machine';
import { ApiError } from '../../client/src/lib/api';
import { browser } from '../../client/src/lib/browser';
import { stubFetch } from './support/fakes';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const order = { plan: 'basic', interval: 'monthly', quantity: 3 } as const;

function session(overrides: Partial<CheckoutSessionView> = {}): CheckoutSessionView {
  return {
    id: 'cs-1',
    plan: 'basic',
    interval: 'monthly',
    quantity: 3,
    status: 'pending',
    url: null,
    error: null,
    createdAt: '2026-11-23T10:00:00.000Z',
    ...overrides,
  };
}

/** A machine whose startCheckout answers `answer` (or fails with it), recording what it was asked. */
function start(answer: { sessionId: string } | Error = { sessionId: 'cs-1' }) {
  const asked: unknown[] = [];
  const assign = vi.spyOn(browser, 'assignLocation').mockImplementation(() => {});
  const machine = checkoutMachine.provide({
    actors: {
      startCheckout: fromPromise(async ({ input }) => {
        asked.push(input);
        if (answer instanceof Error) throw answer;
        return answer;
      }),
    },
  });
  const actor = createActor(machine).start();
  return { actor, asked, assign };
}

describe('the checkout machine', () => {
  it('given a subscribe, when the url arrives, then the browser goes there', async () => {
    const { actor, asked, assign } = start();
    actor.send({ type: 'SUBSCRIBE', ...order });
    expect(isCheckoutBusy(actor.getSnapshot())).toBe(true);
    await waitFor(actor, (state) => state.matches('waiting'));
    expect(asked).toEqual([order]);

    // Another session's url is not ours; a pending one keeps waiting.
    actor.send({ type: 'SESSIONS', sessions: [session({ id: 'cs-0', status: 'ready', url: 'https://checkout.stripe.com/old' }), session()] });
    expect(actor.getSnapshot().value).toBe('waiting');

    actor.send({ type: 'SESSIONS', sessions: [session({ status: 'ready', url: 'https://checkout.stripe.com/c/pay/cs-1' })] });
    expect(actor.getSnapshot().value).toBe('redirecting');
    expect(isCheckoutBusy(actor.getSnapshot())).toBe(true);
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://checkout.stripe.com/c/pay/cs-1');
  });

  it('given the url arrived before the request answered, then it still goes there', async () => {
    let answer!: (value: { sessionId: string }) => void;
    const assign = vi.spyOn(browser, 'assignLocation').mockImplementation(() => {});
    const actor = createActor(
      checkoutMachine.provide({ actors: { startCheckout: fromPromise(() => new Promise<{ sessionId: string }>((resolve) => (answer = resolve))) } }),
    ).start();
    actor.send({ type: 'SUBSCRIBE', ...order });
    actor.send({ type: 'SESSIONS', sessions: [session({ status: 'ready', url: 'https://checkout.stripe.com/early' })] });
    expect(actor.getSnapshot().value).toBe('requesting');
    answer({ sessionId: 'cs-1' });
    await waitFor(actor, (state) => state.matches('redirecting'));
    expect(assign).toHaveBeenCalledWith('https://checkout.stripe.com/early');
  });

  it("given the request fails, then loading stops and the card says 'Error: something happened.'", async () => {
    const { actor, assign } = start(new ApiError('unavailable', 'The service is unavailable right now.', 503));
    actor.send({ type: 'SUBSCRIBE', ...order });
    const state = await waitFor(actor, (snapshot) => snapshot.matches('idle') && snapshot.context.error !== null);
    expect(state.context.error).toBe(CHECKOUT_FAILED_MESSAGE);
    expect(CHECKOUT_FAILED_MESSAGE).toBe('Error: something happened.');
    expect(isCheckoutBusy(state)).toBe(false);
    expect(assign).not.toHaveBeenCalled();
  });

  it("given the session's error arrives, then loading stops and the error is shown", async () => {
    const { actor, assign } = start();
    actor.send({ type: 'SUBSCRIBE', ...order });
    await waitFor(actor, (state) => state.matches('waiting'));
    actor.send({ type: 'SESSIONS', sessions: [session({ status: 'failed', error: 'Your card was declined.' })] });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toBe('Your card was declined.');
    expect(assign).not.toHaveBeenCalled();

    // Trying again clears it.
    actor.send({ type: 'SUBSCRIBE', ...order, quantity: 4 });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('given no answer for 60 seconds, then it gives up with an error', async () => {
    vi.useFakeTimers();
    const { actor, assign } = start();
    actor.send({ type: 'SUBSCRIBE', ...order });
    await vi.advanceTimersByTimeAsync(0); // the request answers
    expect(actor.getSnapshot().value).toBe('waiting');
    await vi.advanceTimersByTimeAsync(CHECKOUT_WAIT_MS - 1);
    expect(actor.getSnapshot().value).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.error).toBe(CHECKOUT_TIMEOUT_MESSAGE);
    expect(assign).not.toHaveBeenCalled();
  });

  it('writes the checkout request through the startCheckout function', async () => {
    const fake = stubFetch({ 'POST /api/fn/startCheckout': () => ({ body: { result: { sessionId: 'cs-9' } } }) });
    const actor = createActor(checkoutMachine).start();
    actor.send({ type: 'SUBSCRIBE', plan: 'professional', interval: 'yearly', quantity: 12 });
    const state = await waitFor(actor, (snapshot) => snapshot.matches('waiting'));
    expect(state.context.sessionId).toBe('cs-9');
    expect(fake.requests.map((request) => [request.path, request.data])).toEqual([['/api/fn/startCheckout', { plan: 'professional', interval: 'yearly', quantity: 12 }]]);
    actor.stop();
  });
});
