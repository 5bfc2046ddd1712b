/**
 * The billing feature's calls (spec §4, §7): the checkout request and the billing portal link.
 * Their results come back as answers; the checkout session's url arrives on `billing:{uid}`.
 */
import type { BillingInterval, PlanId } from '../../../../events/billing-api';
import { api as defaultApi, type ApiClient, type RequestOptions } from '../../lib/api';

/** Writes the checkout request (the "session document"); answers the session id to watch for. */
export function startCheckout(order: { plan: PlanId; interval: BillingInterval; quantity: number }, api: ApiClient = defaultApi, options?: RequestOptions) {
  return api.callFunction('startCheckout', order, options);
}

/** A Stripe billing portal link that returns to `returnUrl` (spec §7: `{returnUrl}` → `{url}`). */
export function createPortalLink(returnUrl: string, api: ApiClient = defaultApi, options?: RequestOptions) {
  return api.callFunction('createPortalLink', { returnUrl }, options);
}
