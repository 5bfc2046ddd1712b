/**
 * Decodes the form bodies Stripe's SDK sends (`line_items[0][price]=...`) into nested objects.
 * Written here because the local test Stripe needs only this much of `qs`, which is not a
 * dependency: bracketed keys nest, numeric keys make arrays, and values stay strings.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

export function parseStripeForm(body: string): Record<string, FormValue> {
  const root: Record<string, FormValue> = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const keys = rawKey.split(/\[|\]\[|\]/).filter((part, index) => part !== '' || index === 0);
    let node: Record<string, FormValue> | FormValue[] = root;
    keys.forEach((key, index) => {
      const last = index === keys.length - 1;
      const container = node as Record<string, FormValue>;
      if (last) {
        container[key] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(keys[index + 1]!);
      if (container[key] === undefined || typeof container[key] === 'string') container[key] = nextIsIndex ? [] : {};
      node = container[key] as Record<string, FormValue> | FormValue[];
    });
  }
  return root;
}

export function text(value: FormValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
