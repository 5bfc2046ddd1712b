import { BillingSnapshot } from '../../../events/billing-api';
import { topics } from '../../../events/topics';
import { useLiveTopic } from './live';

/** The signed-in user's subscriptions, checkout sessions and slots, live (`billing:{uid}`); `uid` null follows nothing. */
export function useBilling(uid: string | null) {
  const { data, error } = useLiveTopic(uid ? topics.billing(uid) : null, BillingSnapshot);
  return { billing: data, error };
}
