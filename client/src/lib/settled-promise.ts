/**
 * Marks a promise with its outcome the way React's `use()` reads it (`status`, `value`), so a
 * component that `use`s it renders at once instead of suspending for a turn. For promises whose
 * value is known already: the build's prerendering and a page about to be hydrated.
 */
export function settled<T>(promise: Promise<T>, value: T): Promise<T> {
  return Object.assign(promise, { status: 'fulfilled', value });
}
