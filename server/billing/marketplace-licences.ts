/**
 * Checks a marketplace purchase code. With `ENVATO_TOKEN` set (mode `marketplace`), Envato's
 * author sale API says whether the code is a real sale. In mode `local` (the embedded default,
 * not production) only the code's format has been checked (by the payload schema) and the
 * licence is recorded as unverified. In mode `off` (production without the token) no code is
 * accepted: an unchecked code would give a map months of Basic for nothing.
 */
import { z } from 'zod';
import { LICENCES_NOT_CONFIGURED, type LicenceMode } from '../../events/billing-plans.js';
import { DomainError } from '../../events/errors.js';

export interface LicenceCheck {
  verified: boolean;
  /** The item the code bought, when the marketplace said. */
  item: string | null;
}

export interface MarketplaceLicences {
  readonly mode: LicenceMode;
  /** Throws unavailable ({@link LICENCES_NOT_CONFIGURED}) in mode `off`, before anything is asked or recorded. */
  requireConfigured(): void;
  check(code: string): Promise<LicenceCheck>;
}

const Sale = z.object({ item: z.object({ name: z.string() }).partial().optional(), supported_until: z.string().nullable().optional() }).loose();

export function marketplaceLicences(options: { mode: LicenceMode; token: string | null; apiUrl: string; fetch?: typeof fetch }): MarketplaceLicences {
  const doFetch = options.fetch ?? fetch;
  const requireConfigured = () => {
    if (options.mode === 'off') throw new DomainError('unavailable', LICENCES_NOT_CONFIGURED);
  };
  return {
    mode: options.mode,
    requireConfigured,
    async check(code) {
      requireConfigured();
      if (options.mode === 'local' || !options.token) return { verified: false, item: null };
      let response: Response;
      try {
        response = await doFetch(`${options.apiUrl}/v3/market/author/sale?code=${encodeURIComponent(code)}`, {
          headers: { authorization: `Bearer ${options.token}`, 'user-agent': 'Mapfold licence check' },
          signal: AbortSignal.timeout(15_000),
        });
      } catch {
        throw new DomainError('unavailable', 'The marketplace could not be reached to check this purchase code. Please try again.');
      }
      if (response.status === 404) throw new DomainError('invalid-argument', 'This purchase code is not valid: the marketplace does not know it.');
      if (!response.ok) throw new DomainError('unavailable', `The marketplace could not check this purchase code (HTTP ${response.status}). Please try again.`);
      const sale = Sale.safeParse(await response.json().catch(() => null));
      if (!sale.success) throw new DomainError('unavailable', 'The marketplace answered in a way Mapfold did not understand. Please try again.');
      return { verified: true, item: sale.data.item?.name ?? null };
    },
  };
}
