/**
 * Stable text of a value, keys sorted and undefined fields left out, so that two records equal
 * in value but read back with their keys in another order compare equal (the publish diff,
 * events/map-changes.ts, and the timeline's, client/src/features/editor/timeline/location-diff.ts).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
