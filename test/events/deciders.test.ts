/**
 * Every aggregate's decider object carries the very schema its readers parse its events with
 * (the projections, the billing reactor, the deciders' own folds): one object, so a writer can
 * never check what it appends against anything but what its readers take.
 */
import { describe, expect, it } from 'vitest';
import { contactDecider, ContactEvent } from '../../events/contact.js';
import { customerDecider, CustomerEvent } from '../../events/customer.js';
import { licenceDecider, LicenceRegistered } from '../../events/licence.js';
import { mapCommentsDecider, MapCommentEvent } from '../../events/map-comments.js';
import { mapDecider, MapEvent, MAP_EVENT_TYPES } from '../../events/map.js';
import { stripeCustomerDecider, StripeCustomerEvent } from '../../events/stripe-customer.js';
import { streams } from '../../events/streams.js';
import { mapEventsOf } from '../../projections/map-events.js';
import { StripeEventReceived } from '../../server/billing/stripe-event.js';
import { stripeEventDecider } from '../../events/stripe-event.js';
import type { RecordedEvent } from '../../ports/event-store.js';

describe('decider objects', () => {
  it('carry the schema each reader parses with', () => {
    // projections/map-events.ts (map_data, maps_list, members, history, live): MapEvent.
    expect(mapDecider.schema).toBe(MapEvent);
    expect(mapDecider.eventTypes).toBe(MAP_EVENT_TYPES);
    // projections/billing.ts: CustomerEvent and LicenceRegistered.
    expect(customerDecider.schema).toBe(CustomerEvent);
    expect(licenceDecider.schema).toBe(LicenceRegistered);
    // projections/map-comments.ts: MapCommentEvent.
    expect(mapCommentsDecider.schema).toBe(MapCommentEvent);
    // server/billing/stripe-customers.ts and billing-reactor.ts.
    expect(stripeCustomerDecider.schema).toBe(StripeCustomerEvent);
    expect(stripeEventDecider.schema).toBe(StripeEventReceived);
    expect(contactDecider.schema).toBe(ContactEvent);
  });

  it('name their streams as streams.ts does', () => {
    expect(mapDecider.streamId('m1')).toBe(streams.map('m1'));
    expect(mapCommentsDecider.streamId('m1')).toBe(streams.mapComments('m1'));
    expect(customerDecider.streamId('u1')).toBe(streams.customer('u1'));
    expect(licenceDecider.streamId('c1')).toBe(streams.licence('c1'));
    expect(stripeCustomerDecider.streamId('cus_1')).toBe(streams.stripeCustomer('cus_1'));
    expect(stripeEventDecider.streamId('evt_1')).toBe(streams.stripeEvent('evt_1'));
    expect(contactDecider.streamId('x')).toBe(streams.contact('x'));
  });

  it('given an event the map decider’s schema refuses, then the map projections refuse it too', () => {
    const data = { mapId: 'm1', edited: '2026-11-28T10:00:00.000Z', location: { id: 'a', title: 'A', layer: 'ground', element: '11' } };
    expect(mapDecider.schema.safeParse({ type: 'LocationAdded', data }).success).toBe(false);
    const recorded = { id: 'e', stream: 'map-m1', revision: 1n, position: { commit: 1n, prepare: 1n }, type: 'LocationAdded', data, metadata: { userId: null, at: data.edited, correlationId: 'c', causationId: 'c' }, recordedAt: new Date() } as RecordedEvent;
    expect(() => mapEventsOf([recorded])).toThrow(/SVG element id/);
  });
});
