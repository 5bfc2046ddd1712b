/** The manage-subscription machine on its own (spec §4 manage flow). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { manageMachine, portalReturnUrl } from '../../client/src/features/billing/manage-machine';
import { browser } from '../../client/src/lib/browser';
import { stubFetch } from './support/fakes';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('the manage machine', () => {
  it('asks for a portal link returning to /maps#subscribe, then goes there', async () => {
    const assign = vi.spyOn(browser, 'assignLocation').mockImplementation(() => {});
    const fake = stubFetch({ 'POST /api/fn/createPortalLink': () => ({ body: { result: { url: 'https://billing.stripe.com/p/session/abc' } } }) });
    const actor = createActor(manageMachine).start();
    actor.send({ type: 'MANAGE' });
    expect(actor.getSnapshot().value).toBe('requesting');
    await waitFor(actor, (state) => state.matches('redirecting'));
    expect(fake.requests[0]?.data).toEqual({ returnUrl: `${window.location.origin}/maps#subscribe` });
    expect(portalReturnUrl('https://mapfold.com')).toBe('https://mapfold.com/maps#subscribe');
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://billing.stripe.com/p/session/abc');
  });

  it("shows the server's error when the link cannot be made, and can try again", async () => {
    const assign = vi.spyOn(browser, 'assignLocation').mockImplementation(() => {});
    let fail = true;
    stubFetch({
      'POST /api/fn/createPortalLink': () =>
        fail
          ? { status: 412, body: { error: { status: 'FAILED_PRECONDITION', message: 'You have no subscription to manage yet.' } } }
          : { body: { result: { url: 'https://billing.stripe.com/p/session/def' } } },
    });
    const actor = createActor(manageMachine).start();
    actor.send({ type: 'MANAGE' });
    const failed = await waitFor(actor, (state) => state.matches('failed'));
    expect(failed.context.error).toBe('You have no subscription to manage yet.');
    expect(assign).not.toHaveBeenCalled();

    fail = false;
    actor.send({ type: 'MANAGE' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await waitFor(actor, (state) => state.matches('redirecting'));
    expect(assign).toHaveBeenCalledWith('https://billing.stripe.com/p/session/def');
  });
});
