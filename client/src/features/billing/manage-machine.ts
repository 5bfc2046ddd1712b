/**
 * The manage flow (spec §4): "the billing portal link is requested with return to
 * /maps#subscribe, and the browser goes there. A failure shows the error."
 *
 *   idle | failed ──MANAGE──▶ requesting (createPortalLink) ──{url}──▶ redirecting
 *                                  └── fails ──▶ failed (the error's message)
 */
import { assign, fromPromise, setup } from 'xstate';
import { toApiError } from '../../lib/api';
import { browser } from '../../lib/browser';
import { createPortalLink } from './billing-api';

/** Where the billing portal sends the customer back: the maps page with the plans open. */
export function portalReturnUrl(origin: string = window.location.origin): string {
  return `${origin}/maps#subscribe`;
}

export interface ManageContext {
  error: string | null;
}

export type ManageEvent = { type: 'MANAGE' };

export const manageMachine = setup({
  types: {
    context: {} as ManageContext,
    events: {} as ManageEvent,
  },
  actors: {
    createPortalLink: fromPromise<{ url: string }, { returnUrl: string }>(async ({ input }) => (await createPortalLink(input.returnUrl)).result),
  },
  actions: {
    goToUrl: (_, params: { url: string }) => browser.assignLocation(params.url),
  },
}).createMachine({
  id: 'manage',
  context: { error: null },
  initial: 'idle',
  states: {
    idle: { on: { MANAGE: 'requesting' } },
    requesting: {
      entry: assign({ error: null }),
      invoke: {
        src: 'createPortalLink',
        input: () => ({ returnUrl: portalReturnUrl() }),
        onDone: { target: 'redirecting', actions: { type: 'goToUrl', params: ({ event }) => ({ url: event.output.url }) } },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => toApiError(event.error).message }) },
      },
    },
    redirecting: {},
    failed: { on: { MANAGE: 'requesting' } },
  },
});
