import { z } from 'zod';

/** Who is acting: what every auth provider (local or Clerk) resolves a request to. */
export const Principal = z.object({
  uid: z.string().min(1),
  email: z.string(),
  emailVerified: z.boolean(),
  displayName: z.string(),
  admin: z.boolean(),
  /** The subscription role from the token claims (spec §6); its values are not fixed yet. */
  stripeRole: z.string().nullable(),
});
export type Principal = z.infer<typeof Principal>;
