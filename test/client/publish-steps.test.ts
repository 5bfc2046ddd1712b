/**
 * What Publish offers (publish-steps.ts): only what the server would accept, licence first,
 * the first choice being the primary button. Never "Publish in a Basic slot" while Basic is
 * 0/0 or the map has no registered licence.
 */
import { describe, expect, it } from 'vitest';
import type { SlotUsage } from '../../events/billing-api';
import { publishSteps, type PublishFacts } from '../../client/src/features/editor/panels/publish-steps';

const slots = (basic: [number, number], pro: [number, number]): SlotUsage => ({
  basic: { used: basic[0], total: basic[1] },
  pro: { used: pro[0], total: pro[1] },
  test: { used: 0, total: 2 },
});
const NONE = slots([0, 0], [0, 0]);
const facts = (overrides: Partial<PublishFacts>): PublishFacts => ({ state: 0, subscribed: false, admin: false, licence: 'none', slots: NONE, ...overrides });
const labels = (overrides: Partial<PublishFacts>) => publishSteps(facts(overrides)).choices.map((choice) => choice.label);

describe('the steps to publish', () => {
  it('locks publishing until the licence is registered, whatever the slots', () => {
    for (const free of [NONE, slots([0, 5], [0, 5])]) {
      expect(publishSteps(facts({ slots: free }))).toEqual({ licence: 'needed', locked: true, choices: [], noSlot: [], published: false });
    }
  });

  it('offers Basic on a running licence first, without a slot, and Pro only with a free Pro slot', () => {
    expect(labels({ licence: 'active' })).toEqual(['Publish on its licence (Basic)']);
    expect(publishSteps(facts({ licence: 'active' })).noSlot).toEqual(['professional']);
    expect(labels({ licence: 'active', slots: slots([0, 0], [0, 1]) })).toEqual(['Publish on its licence (Basic)', 'Publish in a Pro slot']);
  });

  it('after the licence’s months, offers only plans with a free slot, and says which have none', () => {
    expect(publishSteps(facts({ licence: 'ended' }))).toMatchObject({ choices: [], noSlot: ['basic', 'professional'], locked: false });
    expect(labels({ licence: 'ended', slots: slots([2, 3], [1, 1]) })).toEqual(['Publish in a Basic slot']);
    expect(labels({ licence: 'ended', slots: slots([3, 3], [0, 1]) })).toEqual(['Publish in a Pro slot']);
  });

  it('waits for the slots before offering a slot, but not the licence’s Basic', () => {
    expect(publishSteps(facts({ licence: 'ended', slots: undefined }))).toMatchObject({ choices: [], noSlot: [] });
    expect(labels({ licence: 'active', slots: undefined })).toEqual(['Publish on its licence (Basic)']);
  });

  it('offers a live map what it can move to: onto its licence from a Basic slot, or up to Pro', () => {
    expect(labels({ state: 1, subscribed: true, licence: 'active' })).toEqual(['Move onto its licence (frees a Basic slot)']);
    expect(labels({ state: 1, subscribed: false, licence: 'active', slots: slots([0, 0], [0, 1]) })).toEqual(['Publish in a Pro slot']);
    expect(publishSteps(facts({ state: 3, subscribed: true, licence: 'ended' }))).toMatchObject({ choices: [], noSlot: ['basic'], published: true });
  });

  it('lets admins publish anywhere without a licence (unlimited slots)', () => {
    expect(publishSteps(facts({ admin: true }))).toMatchObject({ locked: false, noSlot: [] });
    expect(labels({ admin: true })).toEqual(['Publish in a Basic slot', 'Publish in a Pro slot']);
  });
});
