/**
 * Billing's callable functions (events/billing-api.ts): checkout, the billing portal link,
 * publishing a map into a slot and taking it out, and registering a marketplace licence.
 */
import type { z } from 'zod';
import { LICENCE_BASIC_MONTHS, PLAN_MAP_STATE, type billingFunctionPayloads } from '../../events/billing-api.js';
import { customerDecider, type CustomerCommand, type CustomerEvent } from '../../events/customer.js';
import { DomainError } from '../../events/errors.js';
import { basicUntil, licenceDecider } from '../../events/licence.js';
import { MapState } from '../../events/map-states.js';
import { requireCan } from '../../events/map-access.js';
import { factsOf } from '../../events/map.js';
import type { Position } from '../../events/position.js';
import type { Principal } from '../../events/principal.js';
import { licenceOfMap, readCustomer } from '../../projections/billing.js';
import { decideCommand, type CommandMetadata, type CommandOutcome } from '../commands/command-handler.js';
import { currentMap, setMapState, type MapCommandDeps } from '../commands/map-commands.js';
import type { MarketplaceLicences } from './marketplace-licences.js';
import { BILLING_NOT_CONFIGURED, type StripeGateway } from './stripe-gateway.js';

export interface BillingDeps extends MapCommandDeps {
  gateway: StripeGateway;
  marketplace: MarketplaceLicences;
  publicUrl: string;
}

type Payload<N extends keyof typeof billingFunctionPayloads> = z.output<(typeof billingFunctionPayloads)[N]>;

export async function runCustomerCommand(deps: MapCommandDeps, uid: string, command: CustomerCommand, meta: CommandMetadata): Promise<CommandOutcome<CustomerEvent>> {
  return decideCommand(deps, customerDecider, uid, command, { now: meta.now }, meta);
}

function requireUser(meta: CommandMetadata): Principal {
  if (!meta.principal) throw new DomainError('unauthenticated', 'Unauthenticated');
  return meta.principal;
}

/** Checkouts and the portal need a Stripe: with billing off, say so before anything is recorded. */
function requireStripe(deps: BillingDeps): void {
  if (!deps.gateway.configured) throw new DomainError('unavailable', BILLING_NOT_CONFIGURED);
}

export async function startCheckout(deps: BillingDeps, payload: Payload<'startCheckout'>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  requireStripe(deps);
  const sessionId = deps.ids.uuid();
  const outcome = await runCustomerCommand(
    deps,
    principal.uid,
    { type: 'RequestCheckout', data: { sessionId, uid: principal.uid, email: principal.email, ...payload } },
    meta,
  );
  return { result: { sessionId }, position: outcome.position };
}

/** The portal's return address must be on this site: the link must not send people elsewhere. */
function returnUrlOnThisSite(returnUrl: string, publicUrl: string): string {
  const site = new URL(publicUrl);
  let url: URL;
  try {
    url = new URL(returnUrl, site);
  } catch {
    throw new DomainError('invalid-argument', 'Return address is not valid.');
  }
  if (url.origin !== site.origin) throw new DomainError('invalid-argument', 'Return address must be on this site.');
  return url.toString();
}

export async function createPortalLink(deps: BillingDeps, payload: Payload<'createPortalLink'>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  requireStripe(deps);
  const returnUrl = returnUrlOnThisSite(payload.returnUrl, deps.publicUrl);
  const customer = await readCustomer(deps.db, principal.uid);
  if (!customer?.customerId) throw new DomainError('not-found', 'You have no subscription to manage yet.');
  try {
    const url = await deps.gateway.createPortalSession(customer.customerId, returnUrl);
    return { result: { url }, position: null };
  } catch (error) {
    throw new DomainError('unavailable', `The billing portal could not be opened: ${error instanceof Error ? error.message : 'unknown error'}`);
  }
}

/** The map the caller may publish or unpublish ('manage': its owner, or an admin), and a real user map. */
async function ownedMap(deps: BillingDeps, mapId: string, principal: Principal) {
  const map = await currentMap(deps, mapId);
  if (map.status !== 'active') throw new DomainError('not-found', 'Map not found.');
  requireCan(principal, factsOf(map), 'manage');
  if (map.state === MapState.demo || map.state === MapState.adm) {
    throw new DomainError('invalid-argument', 'This map is managed by Mapfold and cannot be published or unpublished here.');
  }
  return map;
}

const later = (a: Position | null, b: Position | null) => b ?? a;

export async function publishMap(deps: BillingDeps, payload: Payload<'publishMap'>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  const map = await ownedMap(deps, payload.mapId, principal);
  const state = PLAN_MAP_STATE[payload.plan];
  // Spec §6: admins have unlimited slots.
  if (principal.admin) {
    const outcome = await setMapState(deps, { mapId: map.mapId, state, subscribed: true }, meta);
    return { result: null, position: outcome.position };
  }
  const licence = await licenceOfMap(deps.db, map.mapId);
  // A licence's first 6 months are Basic usage without a slot.
  if (payload.plan === 'basic' && licence && new Date(licence.basicUntil) > meta.now) {
    const released = await runCustomerCommand(deps, map.uid, { type: 'ReleaseSlot', data: { mapId: map.mapId, cause: 'owner', title: map.title } }, meta);
    const outcome = await setMapState(deps, { mapId: map.mapId, state, subscribed: false }, meta);
    return { result: null, position: later(released.position, outcome.position) };
  }
  const assigned = await runCustomerCommand(deps, map.uid, { type: 'AssignSlot', data: { mapId: map.mapId, plan: payload.plan, licensed: licence !== null } }, meta);
  const outcome = await setMapState(deps, { mapId: map.mapId, state, subscribed: true }, meta);
  return { result: null, position: later(assigned.position, outcome.position) };
}

export async function unpublishMap(deps: BillingDeps, payload: Payload<'unpublishMap'>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  const map = await ownedMap(deps, payload.mapId, principal);
  const released = await runCustomerCommand(deps, map.uid, { type: 'ReleaseSlot', data: { mapId: map.mapId, cause: 'owner', title: map.title } }, meta);
  const outcome = await setMapState(deps, { mapId: map.mapId, state: MapState.test, subscribed: false }, meta);
  return { result: null, position: later(released.position, outcome.position) };
}

export async function registerLicence(deps: BillingDeps, payload: Payload<'registerLicence'>, meta: CommandMetadata) {
  const principal = requireUser(meta);
  // As checkout without a Stripe: said before anything is read or recorded.
  deps.marketplace.requireConfigured();
  const map = await ownedMap(deps, payload.mapId, principal);
  if (await licenceOfMap(deps.db, map.mapId)) throw new DomainError('aborted', 'This map already has a registered licence.');
  const check = await deps.marketplace.check(payload.purchaseCode);
  const until = basicUntil(meta.now, LICENCE_BASIC_MONTHS);
  // One code, one map: the licence's stream is new, or the decider refuses (aborted).
  const registered = await decideCommand(
    deps,
    licenceDecider,
    payload.purchaseCode,
    {
      type: 'RegisterLicence',
      data: {
        code: payload.purchaseCode,
        mapId: map.mapId,
        uid: map.uid,
        verified: check.verified,
        item: check.item,
        registeredAt: meta.now.toISOString(),
        basicUntil: until.toISOString(),
      },
    },
    undefined,
    meta,
  );
  let position = registered.position;
  // The licence's Basic usage starts now: a test map goes live at once.
  if (map.state < MapState.live) {
    const outcome = await setMapState(deps, { mapId: map.mapId, state: MapState.live, subscribed: false }, meta);
    position = outcome.position ?? position;
  }
  return { result: { verified: check.verified, basicUntil: until.toISOString() }, position };
}
