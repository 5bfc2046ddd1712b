/**
 * Webhooks converge (a standing guard): for generated customers with lifecycles, Stripe's events
 * delivered in any order, with duplicates, while Stripe moves on and its re-reads fail at
 * random, end every user's billing (subscriptions, slots, stripeRole, customer, checkouts) in
 * the state in-order delivery gives.
 *
 * The many-customer property drives the billing reactor itself, over an in-memory event store
 * and a simulated Stripe, so a hundred customers take seconds (CONVERGENCE_RUNS=30 and more
 * runs ten customers a run longer); a smaller run goes end to end
 * through the real webhook route, signatures, reactor and projection, with the local test
 * Stripe's API (failing at random) on each database.
 */
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import Fastify, { type FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_IDS } from '../../events/billing-api.js';
import { CustomerEvent, evolveCustomer, initialCustomerState, slotsUsed, slotTotal, type CustomerState } from '../../events/customer.js';
import { comparePositions, START, type Position } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import { billingSnapshot, billingProjection, stripeRoleOf } from '../../projections/billing.js';
import { billingReactor } from '../../server/billing/billing-reactor.js';
import { localPrices, localStripeApi } from '../../server/billing/local-stripe/local-stripe-api.js';
import { LocalStripeStore, type LocalObject } from '../../server/billing/local-stripe/local-stripe-store.js';
import { signWebhook } from '../../server/billing/local-stripe/local-webhooks.js';
import { marketplaceLicences } from '../../server/billing/marketplace-licences.js';
import type { Reactor } from '../../server/billing/reactor-runner.js';
import { StripeGateway } from '../../server/billing/stripe-gateway.js';
import { randomIds, systemClock } from '../../server/clock.js';
import { loadConfig } from '../../server/config.js';
import type { Database } from '../../ports/database.js';
import { openTestPGlite } from '../support/pglite-template.js';
import type { RecordedEvent } from '../../ports/event-store.js';
import { databaseTargets } from '../support/databases.js';
import { MemoryEventStore } from '../support/memory-event-store.js';
import { buildLifecycle, lifecycleShapeArb, seededRandom, type Lifecycle, type StripeStep } from '../support/stripe-lifecycles.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const config = loadConfig({});
const quiet = { error: () => {}, info: () => {} };

/** How the events are delivered: the order, duplicates, and how often Stripe cannot be re-read. */
interface Delivery {
  seed: number;
  /** Chance that Stripe moves on before the next delivery (1: every event exists before any is delivered). */
  advance: number;
  /** Chance that an event is delivered twice. */
  duplicates: number;
  /** Chance that a re-read from Stripe fails. */
  failures: number;
}

const deliveryArb: fc.Arbitrary<Delivery> = fc.record({
  seed: fc.integer(),
  advance: fc.constantFrom(1, 0.5, 0.15),
  duplicates: fc.constantFrom(0, 0.3),
  failures: fc.constantFrom(0, 0.3, 0.7, 1),
});

/**
 * Stripe's timeline: the steps of every customer in Stripe's order, and the events delivered
 * meanwhile. `deliver` is called with Stripe's state as it is at that moment.
 */
async function runTimeline(
  lifecycles: Lifecycle[],
  delivery: Delivery | 'in order',
  stripeMovesOn: (step: StripeStep) => Promise<void>,
  deliver: (event: Record<string, unknown>) => Promise<void>,
): Promise<void> {
  const steps = lifecycles.flatMap((lifecycle) => lifecycle.steps).sort((a, b) => a.created - b.created);
  if (delivery === 'in order') {
    for (const step of steps) {
      await stripeMovesOn(step);
      for (const event of step.events) await deliver(event);
    }
    return;
  }
  const random = seededRandom(delivery.seed);
  const pending: Record<string, unknown>[] = [];
  let next = 0;
  while (next < steps.length || pending.length > 0) {
    if (next < steps.length && (pending.length === 0 || random() < delivery.advance)) {
      const step = steps[next++]!;
      await stripeMovesOn(step);
      for (const event of step.events) {
        pending.push(event);
        if (random() < delivery.duplicates) pending.push(event);
      }
    } else {
      const [event] = pending.splice(Math.floor(random() * pending.length), 1);
      await deliver(event!);
    }
  }
}

/** What a user sees of their billing, without ids that differ between two runs of one lifecycle. */
function billingOf(state: CustomerState, key: string) {
  const plain = (text: string | null) => text?.replaceAll(key, 'KEY') ?? null;
  return {
    customerId: plain(state.customerId),
    subscriptions: state.subscriptions.map((subscription) => ({ ...subscription, id: plain(subscription.id) })),
    checkouts: state.sessions.map((session) => [plain(session.id), session.status]),
    slots: Object.fromEntries(PLAN_IDS.map((plan) => [plan, { used: slotsUsed(state, plan), total: slotTotal(state.subscriptions, plan) }])),
    stripeRole: PLAN_IDS.filter((plan) => slotTotal(state.subscriptions, plan) > 0).join('+') || null,
  };
}

/** Stripe as the reactor sees it: a re-read answers Stripe's state now, or fails as told. */
class SimulatedStripe extends StripeGateway {
  readonly objects = new Map<string, LocalObject>();
  fails: () => 'no' | 'not-found' | 'unreachable' = () => 'no';

  constructor() {
    super(config.stripe, config.publicUrl, () => null);
  }

  override async retrieveSubscription(id: string): Promise<Stripe.Subscription | null> {
    const failure = this.fails();
    if (failure === 'unreachable') throw new Stripe.errors.StripeConnectionError({ message: 'Stripe could not be reached.' });
    const object = this.objects.get(id);
    return failure === 'not-found' || !object ? null : (structuredClone(object) as unknown as Stripe.Subscription);
  }
}

/** One world: an event store, a simulated Stripe and the billing reactor between them. */
function world(db: Database) {
  const store = new MemoryEventStore();
  const stripe = new SimulatedStripe();
  const reactor: Reactor = billingReactor({
    store,
    db,
    ids: randomIds,
    gateway: stripe,
    marketplace: marketplaceLicences(config.envato),
    publicUrl: config.publicUrl,
    clock: systemClock,
    logger: quiet,
  });
  let position = 0n;
  return {
    store,
    stripe,
    async startCheckouts(lifecycle: Lifecycle) {
      const at = new Date().toISOString();
      await store.append(
        streams.customer(lifecycle.uid),
        lifecycle.sessionIds.map((sessionId) => ({
          id: randomIds.uuid(),
          type: 'CheckoutRequested',
          data: { sessionId, uid: lifecycle.uid, email: `${lifecycle.uid}@example.com`, plan: 'basic', interval: 'monthly', quantity: 1, at },
          metadata: { userId: lifecycle.uid, at, correlationId: sessionId, causationId: sessionId },
        })),
        'any',
      );
    },
    /** Hands the recorded Stripe event to the reactor, again if it fails, as the reactor's runner does. */
    async deliver(event: Record<string, unknown>) {
      const data = { id: String(event.id), type: String(event.type), created: Number(event.created), livemode: false, object: (event.data as { object: object }).object };
      const recorded: RecordedEvent = {
        id: randomIds.uuid(),
        stream: streams.stripeEvent(data.id),
        revision: 0n,
        position: { commit: ++position, prepare: position },
        type: 'StripeEventReceived',
        data: structuredClone(data),
        metadata: { userId: null, at: new Date().toISOString(), correlationId: data.id, causationId: `stripe:${data.id}` },
        recordedAt: new Date(),
      };
      for (let attempt = 1; ; attempt++) {
        try {
          await reactor.handle(recorded);
          return;
        } catch (error) {
          if (attempt >= 50) throw error;
        }
      }
    },
    async billing(lifecycle: Lifecycle, key: string) {
      const recorded = await store.readStream(streams.customer(lifecycle.uid));
      const state = recorded.map((event) => CustomerEvent.parse({ type: event.type, data: event.data })).reduce(evolveCustomer, initialCustomerState);
      return billingOf(state, key);
    },
  };
}

/** Runs of the many-customer property (ten customers each): 300 customers took 20 s of a quiet machine and a minute of a busy CI one. */
const CONVERGENCE_RUNS = Number(process.env.CONVERGENCE_RUNS ?? 10);

describe('webhooks converge under any order, duplicates and failing re-reads', () => {
  let db: Database;
  const figure = { users: 0, converged: 0 };

  beforeAll(async () => {
    // The reactor reads titles and older customers from the read model: its tables, empty.
    db = await openTestPGlite();
    await db.exec(billingProjection.schema);
  });
  afterAll(async () => {
    await db?.close();
  });

  // Ten customers a run: 10 runs (100 customers) in CI, CONVERGENCE_RUNS=30 or more for a longer hunt.
  it(`ends every generated customer’s billing as in-order delivery does (${CONVERGENCE_RUNS * 10} customers)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(lifecycleShapeArb, { minLength: 10, maxLength: 10 }), deliveryArb, async (shapes, delivery) => {
        const inOrder = world(db);
        const shuffled = world(db);
        const keys = shapes.map((_, index) => `c${index}`);
        const lifecycles = shapes.map((shape, index) => buildLifecycle(keys[index]!, shape, config.stripe.prices));
        for (const lifecycle of lifecycles) {
          await inOrder.startCheckouts(lifecycle);
          await shuffled.startCheckouts(lifecycle);
        }
        const random = seededRandom(delivery.seed ^ 0x5eed);
        shuffled.stripe.fails = () => (random() >= delivery.failures ? 'no' : random() < 0.5 ? 'not-found' : 'unreachable');

        await runTimeline(lifecycles, 'in order', async (step) => void inOrder.stripe.objects.set(step.subscription.id, step.subscription), (event) => inOrder.deliver(event));
        await runTimeline(lifecycles, delivery, async (step) => void shuffled.stripe.objects.set(step.subscription.id, step.subscription), (event) => shuffled.deliver(event));

        let converged = 0;
        for (const [index, lifecycle] of lifecycles.entries()) {
          if (JSON.stringify(await shuffled.billing(lifecycle, keys[index]!)) === JSON.stringify(await inOrder.billing(lifecycle, keys[index]!))) converged++;
        }
        figure.users += lifecycles.length;
        figure.converged += converged;
        for (const [index, lifecycle] of lifecycles.entries()) {
          expect(await shuffled.billing(lifecycle, keys[index]!), lifecycle.uid).toEqual(await inOrder.billing(lifecycle, keys[index]!));
        }
      }),
      { numRuns: CONVERGENCE_RUNS },
    );
    expect(figure).toEqual({ users: CONVERGENCE_RUNS * 10, converged: CONVERGENCE_RUNS * 10 });
    // 300 customers took some 20 s on a quiet 2-core machine, and twice that beside a busy neighbour:
    // 30 s was too little once (a test that fails for the machine's load costs a whole CI run).
  }, Math.max(120_000, CONVERGENCE_RUNS * 4_000));
});

/** The endpoint's signing secret this test configures the app with (Stripe mode, a fake Stripe). */
const WEBHOOK_SECRET = 'whsec_convergence';

describe.each(databaseTargets)('webhooks converge end to end on $name', (target) => {
  let stripe: FastifyInstance;
  let objects: LocalStripeStore;
  let server: TestServer;
  /** Chance that a call to Stripe's API fails (404 or 400, as Stripe answers). */
  let failures = 0;
  const random = seededRandom(Date.now());

  beforeAll(async () => {
    // The local test Stripe's API on a server of its own, reached by the SDK as Stripe would be.
    stripe = Fastify();
    objects = await LocalStripeStore.open(await openTestPGlite());
    await stripe.register(async (scope) =>
      localStripeApi(scope, {
        store: objects,
        prices: localPrices(config.stripe.prices),
        pagesBase: 'http://stripe.test',
        apiKey: 'sk_test_convergence',
        failNext: () =>
          random() >= failures
            ? null
            : random() < 0.5
              ? { status: 404, type: 'invalid_request_error', message: 'No such subscription.' }
              : { status: 400, type: 'invalid_request_error', message: 'Stripe refused the request.' },
      }),
    );
    await stripe.listen({ port: 0, host: '127.0.0.1' });
    server = await startTestServer(target, {
      env: {
        STRIPE_SECRET_KEY: 'sk_test_convergence',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: `http://127.0.0.1:${(stripe.server.address() as AddressInfo).port}`,
      },
    });
  });
  afterAll(async () => {
    await server?.close();
    await stripe?.close();
  });

  it('through the webhook route, with Stripe failing at random, ends as in-order delivery does', async () => {
    let last: Position = START;
    const deliver = async (event: Record<string, unknown>) => {
      const payload = JSON.stringify(event);
      const response = await fetch(`${server.url}/api/stripe/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signWebhook(payload, WEBHOOK_SECRET) },
        body: payload,
      });
      expect(response.status).toBe(200);
      const [recorded] = await server.services.store.readStream(streams.stripeEvent(String(event.id)));
      if (comparePositions(recorded!.position, last) > 0) last = recorded!.position;
    };
    /** Waits for the reactor to handle every delivered event and the read model to take in what it did. */
    const settled = async (lifecycles: Lifecycle[]) => {
      await server.app.billingReactor.waitFor(last);
      for (const lifecycle of lifecycles) {
        const events = await server.services.store.readStream(streams.customer(lifecycle.uid));
        if (events.length > 0) await server.runner.waitFor(events.at(-1)!.position, ['billing']);
      }
    };
    const billing = async (lifecycle: Lifecycle, key: string) => {
      const { subscriptions, slots, notices, checkoutSessions } = await billingSnapshot(server.services.db, lifecycle.uid, false);
      const normal = JSON.parse(JSON.stringify({ subscriptions, slots, notices, checkoutSessions }).replaceAll(key, 'KEY'));
      return { ...normal, stripeRole: await stripeRoleOf(server.services.db, lifecycle.uid) };
    };
    const movesOn = async (step: StripeStep) => objects.put(step.subscription);

    await fc.assert(
      fc.asyncProperty(
        fc.array(lifecycleShapeArb, { minLength: 6, maxLength: 6 }),
        fc.record({ seed: fc.integer(), advance: fc.constantFrom(1, 0.3), duplicates: fc.constant(0.3), failures: fc.constant(0.5) }),
        async (shapes, delivery) => {
          const run = randomIds.uuid().slice(0, 8);
          const inOrderKeys = shapes.map((_, index) => `${run}-in-order-${index}`);
          const shuffledKeys = shapes.map((_, index) => `${run}-shuffled-${index}`);
          const inOrder = shapes.map((shape, index) => buildLifecycle(inOrderKeys[index]!, shape, config.stripe.prices));
          const shuffled = shapes.map((shape, index) => buildLifecycle(shuffledKeys[index]!, shape, config.stripe.prices));

          failures = 0;
          await runTimeline(inOrder, 'in order', movesOn, deliver);
          await settled(inOrder);
          failures = delivery.failures;
          await runTimeline(shuffled, delivery, movesOn, deliver);
          await settled(shuffled);
          failures = 0;

          for (const [index, lifecycle] of shuffled.entries()) {
            expect(await billing(lifecycle, shuffledKeys[index]!), lifecycle.uid).toEqual(await billing(inOrder[index]!, inOrderKeys[index]!));
          }
        },
      ),
      { numRuns: 1, endOnFailure: true },
    );
  });
});
