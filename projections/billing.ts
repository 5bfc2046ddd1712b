/**
 * The billing read model: each customer's folded state (checkout sessions, subscriptions,
 * slots, notices) and the licence of each map. It feeds the `billing:{uid}` live topic
 * (server/live/topic-access.ts).
 *
 * It has no unique constraint on the Stripe customer id: which user a Stripe customer belongs
 * to is decided in the domain (events/stripe-customer.ts) before anything reaches a customer's
 * stream, and a constraint that throws inside a projection would stop it on the same event for
 * good (version 1 had one, and froze billing for everyone on two events naming one customer).
 */
import { FREE_TEST_SLOTS } from '../events/map-states.js';
import { CustomerEvent, evolveCustomer, initialCustomerState, slotsUsed, slotTotal, type CustomerState } from '../events/customer.js';
import { LicenceRegistered } from '../events/licence.js';
import { topics } from '../events/topics.js';
import { PLAN_IDS, type BillingSnapshot } from '../events/billing-api.js';
import type { Queryable } from '../ports/database.js';
import { countTestMaps } from './maps-list.js';
import type { Projection } from './projection.js';

const CUSTOMER_PREFIX = 'customer-';
const LICENCE_PREFIX = 'licence-';

export const billingProjection: Projection = {
  name: 'billing',
  version: 2,
  schema: `
    CREATE TABLE IF NOT EXISTS billing_customers (
      uid text PRIMARY KEY,
      customer_id text,
      state jsonb NOT NULL
    );
    DROP INDEX IF EXISTS billing_customers_customer_id;
    CREATE INDEX IF NOT EXISTS billing_customers_by_customer_id ON billing_customers (customer_id) WHERE customer_id IS NOT NULL;
    CREATE TABLE IF NOT EXISTS map_licences (
      map_id text PRIMARY KEY,
      code text NOT NULL,
      uid text NOT NULL,
      verified boolean NOT NULL,
      registered_at timestamptz NOT NULL,
      basic_until timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS map_licences_basic_until ON map_licences (basic_until);
    CREATE INDEX IF NOT EXISTS map_licences_uid ON map_licences (uid);
  `,
  tables: ['billing_customers', 'map_licences'],
  streamPrefixes: [CUSTOMER_PREFIX, LICENCE_PREFIX],
  async apply(tx, events, changed) {
    // Fold the batch per customer in memory, then write each customer once.
    const states = new Map<string, CustomerState>();
    for (const recorded of events) {
      if (recorded.stream.startsWith(CUSTOMER_PREFIX)) {
        const parsed = CustomerEvent.safeParse({ type: recorded.type, data: recorded.data });
        if (!parsed.success) continue;
        const uid = recorded.stream.slice(CUSTOMER_PREFIX.length);
        const state = states.get(uid) ?? (await readCustomer(tx, uid)) ?? initialCustomerState;
        states.set(uid, evolveCustomer(state, parsed.data));
        changed.add(topics.billing(uid));
      } else if (recorded.stream.startsWith(LICENCE_PREFIX)) {
        const parsed = LicenceRegistered.safeParse({ type: recorded.type, data: recorded.data });
        if (!parsed.success) continue;
        const d = parsed.data.data;
        await tx.query(
          `INSERT INTO map_licences (map_id, code, uid, verified, registered_at, basic_until) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (map_id) DO UPDATE SET code = EXCLUDED.code, uid = EXCLUDED.uid, verified = EXCLUDED.verified,
             registered_at = EXCLUDED.registered_at, basic_until = EXCLUDED.basic_until`,
          [d.mapId, d.code, d.uid, d.verified, d.registeredAt, d.basicUntil],
        );
        changed.add(topics.billing(d.uid));
      }
    }
    for (const [uid, state] of states) {
      await tx.query(
        `INSERT INTO billing_customers (uid, customer_id, state) VALUES ($1, $2, $3)
         ON CONFLICT (uid) DO UPDATE SET customer_id = EXCLUDED.customer_id, state = EXCLUDED.state`,
        [uid, state.customerId, JSON.stringify(state)],
      );
    }
  },
};

export async function readCustomer(db: Queryable, uid: string): Promise<CustomerState | null> {
  const { rows } = await db.query<{ state: CustomerState }>('SELECT state FROM billing_customers WHERE uid = $1', [uid]);
  return rows[0]?.state ?? null;
}

/**
 * The one user this read model gives the Stripe customer id, or null (none, or several).
 * Only for customers recorded before Stripe customers had streams of their own
 * (server/billing/stripe-customers.ts reads those); the reactor then claims it for the user.
 */
export async function legacyOwnerOfCustomer(db: Queryable, customerId: string): Promise<string | null> {
  const { rows } = await db.query<{ uid: string }>('SELECT uid FROM billing_customers WHERE customer_id = $1 LIMIT 2', [customerId]);
  return rows.length === 1 ? rows[0]!.uid : null;
}

export interface MapLicence {
  mapId: string;
  code: string;
  uid: string;
  verified: boolean;
  registeredAt: string;
  basicUntil: string;
}

export async function licenceOfMap(db: Queryable, mapId: string): Promise<MapLicence | null> {
  const { rows } = await db.query<{ map_id: string; code: string; uid: string; verified: boolean; registered_at: Date | string; basic_until: Date | string }>(
    'SELECT map_id, code, uid, verified, registered_at, basic_until FROM map_licences WHERE map_id = $1',
    [mapId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    mapId: row.map_id,
    code: row.code,
    uid: row.uid,
    verified: row.verified,
    registeredAt: new Date(row.registered_at).toISOString(),
    basicUntil: new Date(row.basic_until).toISOString(),
  };
}

/** The value of `billing:{uid}`: the customer's state with the slot usage worked out. */
export async function billingSnapshot(db: Queryable, uid: string, admin: boolean): Promise<BillingSnapshot> {
  const state = (await readCustomer(db, uid)) ?? initialCustomerState;
  const testUsed = await countTestMaps(db, uid);
  const { rows: licences } = await db.query<{ map_id: string; verified: boolean; registered_at: Date | string; basic_until: Date | string }>(
    'SELECT map_id, verified, registered_at, basic_until FROM map_licences WHERE uid = $1 ORDER BY registered_at',
    [uid],
  );
  return {
    subscriptions: state.subscriptions,
    licences: licences.map((row) => ({
      mapId: row.map_id,
      verified: row.verified,
      registeredAt: new Date(row.registered_at).toISOString(),
      basicUntil: new Date(row.basic_until).toISOString(),
    })),
    checkoutSessions: state.sessions,
    slots: {
      basic: { used: slotsUsed(state, 'basic'), total: slotTotal(state.subscriptions, 'basic') },
      pro: { used: slotsUsed(state, 'professional'), total: slotTotal(state.subscriptions, 'professional') },
      test: { used: testUsed, total: admin ? null : FREE_TEST_SLOTS },
    },
    notices: state.notices,
  };
}

/**
 * The stripeRole claim (spec §6) of a local account: the plans with a subscription that counts,
 * 'basic', 'professional' or 'basic+professional'; null without one.
 */
export async function stripeRoleOf(db: Queryable, uid: string): Promise<string | null> {
  let state: CustomerState | null;
  try {
    state = await readCustomer(db, uid);
  } catch (error) {
    // Before the read model's first start its table does not exist yet: nobody has a plan.
    if ((error as { code?: string }).code === '42P01') return null;
    throw error;
  }
  if (!state) return null;
  const plans = PLAN_IDS.filter((plan) => slotTotal(state.subscriptions, plan) > 0);
  return plans.length > 0 ? plans.join('+') : null;
}
