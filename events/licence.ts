/**
 * A marketplace licence (stream `licence-{purchase code}`): one purchase code serves one map.
 * The stream is created with expected revision "no stream", so a code registered twice, even
 * at the same moment, is refused the second time.
 */
import { z } from 'zod';
import type { Decider } from './decider.js';
import { DomainError } from './errors.js';
import { streams } from './streams.js';

export const LicenceRegistered = z.object({
  type: z.literal('LicenceRegistered'),
  data: z.object({
    code: z.string(),
    mapId: z.string(),
    uid: z.string(),
    /** False when the marketplace could not be asked (no token configured): only the format was checked. */
    verified: z.boolean(),
    /** What the marketplace says was bought, when it was asked. */
    item: z.string().nullable(),
    registeredAt: z.iso.datetime({ offset: true }),
    /** The end of the licence's 6 months of Basic usage for the map. */
    basicUntil: z.iso.datetime({ offset: true }),
  }),
});
export type LicenceRegistered = z.infer<typeof LicenceRegistered>;
export const LicenceEvent = LicenceRegistered;
export type LicenceEvent = LicenceRegistered;
export const LICENCE_EVENT_TYPES: ReadonlySet<string> = new Set(['LicenceRegistered']);

/** Register a purchase code for a map; the marketplace's answer and the dates come in the command. */
export interface RegisterLicence {
  type: 'RegisterLicence';
  data: LicenceRegistered['data'];
}

/** A code's licence: the map it serves once registered. */
export type LicenceState = { registered: false } | { registered: true; mapId: string };

export const initialLicenceState: LicenceState = { registered: false };

export function evolveLicence(_state: LicenceState, event: LicenceEvent): LicenceState {
  return { registered: true, mapId: event.data.mapId };
}

export const LICENCE_TAKEN = 'This purchase code is already registered to a map.';

/** One code, one map: a code already registered is refused, even for the same map. */
export function decideLicence(command: RegisterLicence, state: LicenceState): LicenceEvent[] {
  if (state.registered) throw new DomainError('aborted', LICENCE_TAKEN);
  return [{ type: 'LicenceRegistered', data: command.data }];
}

/** A purchase code as the command handler takes it: stream `licence-{code}`, read with {@link LicenceEvent}. */
export const licenceDecider: Decider<RegisterLicence, LicenceEvent, LicenceState, void> = {
  name: 'licence',
  streamId: streams.licence,
  schema: LicenceEvent,
  eventTypes: LICENCE_EVENT_TYPES,
  initialState: initialLicenceState,
  evolve: evolveLicence,
  decide: (command, state) => decideLicence(command, state),
};

/** The end of a licence's Basic usage: 6 months (spec §1, §9) after registration. */
export function basicUntil(registeredAt: Date, months: number): Date {
  const end = new Date(registeredAt);
  const day = end.getUTCDate();
  end.setUTCMonth(end.getUTCMonth() + months);
  // 31 August + 6 months is 28 February, not 3 March.
  if (end.getUTCDate() !== day) end.setUTCDate(0);
  return end;
}
