/**
 * Checks a marketplace purchase code. With `ENVATO_TOKEN` set, Envato's author sale API says
 * whether the code is a real sale; without it only the code's format has been checked (by the
 * payload schema) and the licence is recorded as unverified.
 */
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';

export interface LicenceCheck {
  verified: boolean;
  /** The item the code bought, when the marketplace said. */
  item: string | null;
}

export interface MarketplaceLicences {
  check(code: string): Promise<LicenceCheck>;
}

const Sale = z.object({ item: z.object({ name: z.string() }).partial().optional(), supported_until: z.string().nullable().optional() }).loose();

export function marketplaceLicences(options: { token: string | null; apiUrl: string; fetch?: typeof fetch }): MarketplaceLicences {
  const doFetch = options.fetch ?? fetch;
  return {
    async check(code) {
      if (!options.token) return { verified: false, item: null };
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
