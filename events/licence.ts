/**
 * A marketplace licence (stream `licence-{purchase code}`): one purchase code serves one map.
 * The stream is created with expected revision "no stream", so a code registered twice, even
 * at the same moment, is refused the second time.
 */
import { z } from 'zod';

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

/** The end of a licence's Basic usage: 6 months (spec §1, §9) after registration. */
export function basicUntil(registeredAt: Date, months: number): Date {
  const end = new Date(registeredAt);
  const day = end.getUTCDate();
  end.setUTCMonth(end.getUTCMonth() + months);
  // 31 August + 6 months is 28 February, not 3 March.
  if (end.getUTCDate() !== day) end.setUTCDate(0);
  return end;
}
