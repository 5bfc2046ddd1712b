/**
 * Decodes the form bodies Stripe's SDK sends (`line_items[0][price]=...`) and the local test
 * Stripe's pages post into nested objects, with `qs`. Every object it makes has a null
 * prototype and `__proto__` keys are dropped, so no key a client sends
 * (`quantity[__proto__][x]`, `constructor[prototype][x]`) can reach Object.prototype; the
 * limits bound what one body can make, and going past them is refused rather than cut short.
 */
import qs from 'qs';
import { DomainError } from '../../../events/errors.js';

export type FormValue = string | FormValue[] | { [key: string]: FormValue };

/** A form body the parser refused (too deep, too many fields, an array too long): invalid-argument. */
export class StripeFormError extends DomainError {
  constructor(message: string) {
    super('invalid-argument', message);
    this.name = 'StripeFormError';
  }
}

const OPTIONS = {
  plainObjects: true,
  allowPrototypes: false,
  // `line_items[0][adjustable_quantity][enabled]` is the deepest the SDK sends.
  depth: 5,
  strictDepth: true,
  // `shipping_address_collection[allowed_countries]` may list every country Stripe knows.
  arrayLimit: 300,
  parameterLimit: 1000,
  throwOnLimitExceeded: true,
} as const;

export function parseStripeForm(body: string): Record<string, FormValue> {
  try {
    return qs.parse(body, OPTIONS) as Record<string, FormValue>;
  } catch (error) {
    throw new StripeFormError(`The form could not be read: ${error instanceof Error ? error.message : 'invalid form'}`);
  }
}

export function text(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
