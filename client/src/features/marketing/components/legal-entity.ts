/**
 * The facts every legal document repeats, kept in one place so a change (a new address, a new
 * processor) is made once. The governing law is the company's choice of jurisdiction.
 */
export const LEGAL = {
  company: 'Mapfold',
  website: 'mapfold.com',
  generalEmail: 'hello@mapfold.com',
  privacyEmail: 'privacy@mapfold.com',
  governingLaw: 'Ireland',
  courts: 'the courts of Dublin, Ireland',
  /** When the current versions took effect. */
  effective: { text: '1 November 2026', iso: '2026-11-01' },
} as const;
