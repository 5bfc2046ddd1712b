/**
 * What the Publish panel offers, in the order a customer walks it: first the map's licence
 * (slots only work with registered maps, spec §2), then a slot. Only actions the server would
 * accept are offered as buttons, so the primary button is always the next step that can
 * succeed; what is missing for the others (a slot) is said, with the way to get it.
 * Pure: the panel passes what it knows, tests call it directly.
 */
import type { PlanId, SlotUsage } from '../../../../../events/billing-api';
import { MapState } from '../../../../../events/map-states';

/** Step 1: no licence yet, its 6 months of Basic running, or ended. */
export type LicenceStep = 'needed' | 'active' | 'ended';

export interface PublishChoice {
  plan: PlanId;
  label: string;
}

export interface PublishSteps {
  licence: LicenceStep;
  /** Step 2 waits for step 1 (never for admins, who publish without licence or slot). */
  locked: boolean;
  /** The publishes that can succeed now; the first is the primary button while the map is not public. */
  choices: PublishChoice[];
  /** Plans the map could move to but that have no free slot: said with a link to subscribe. */
  noSlot: PlanId[];
  /** The map is public (live or Pro). */
  published: boolean;
}

export interface PublishFacts {
  state: number;
  subscribed: boolean;
  admin: boolean;
  /** The map's licence: none, running or ended. */
  licence: 'none' | 'active' | 'ended';
  /** The user's slots; undefined until `billing:{uid}` arrives (slot choices wait for it). */
  slots: SlotUsage | undefined;
}

const free = (slots: SlotUsage, plan: PlanId) => {
  const count = plan === 'basic' ? slots.basic : slots.pro;
  return Math.max(0, count.total - count.used);
};

export function publishSteps({ state, subscribed, admin, licence, slots }: PublishFacts): PublishSteps {
  const published = state === MapState.live || state === MapState.pro;
  const steps: PublishSteps = { licence: licence === 'none' ? 'needed' : licence, locked: false, choices: [], noSlot: [], published };
  // Admins have unlimited slots and need no licence (spec §6).
  if (admin) {
    if (state !== MapState.live) steps.choices.push({ plan: 'basic', label: 'Publish in a Basic slot' });
    if (state !== MapState.pro) steps.choices.push({ plan: 'professional', label: 'Publish in a Pro slot' });
    return steps;
  }
  if (licence === 'none') {
    // The server refuses every slot to an unregistered map: nothing to press here yet.
    steps.locked = true;
    return steps;
  }
  const onLicence = licence === 'active';
  // Basic: on the running licence (no slot), or in a Basic slot. A map in a Basic slot may move
  // onto its licence (freeing the slot); a map live on its licence is already at Basic.
  const offerBasic = state !== MapState.live || (subscribed && onLicence);
  if (offerBasic) {
    if (onLicence) steps.choices.push({ plan: 'basic', label: state === MapState.live ? 'Move onto its licence (frees a Basic slot)' : 'Publish on its licence (Basic)' });
    else if (slots && free(slots, 'basic') > 0) steps.choices.push({ plan: 'basic', label: 'Publish in a Basic slot' });
    else if (slots) steps.noSlot.push('basic');
  }
  if (state !== MapState.pro) {
    if (slots && free(slots, 'professional') > 0) steps.choices.push({ plan: 'professional', label: 'Publish in a Pro slot' });
    else if (slots) steps.noSlot.push('professional');
  }
  return steps;
}
