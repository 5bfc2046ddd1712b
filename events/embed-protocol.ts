/**
 * The embed protocol's constants (events/embed-messages.ts has its messages): a module of its
 * own, without zod, so /embed.js takes these and only the messages' types.
 */

/** The marker and version every message carries. */
export const EMBED_PROTOCOL = 1;
/** The viewer's address parameter naming the host page's origin (set by the SDK). */
export const EMBED_ORIGIN_PARAM = 'host';

/**
 * A host origin the map may trust: an http(s) origin exactly as `location.origin` writes it
 * (no path, no "null", no "*"), else null.
 */
export function hostOrigin(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value ? url.origin : null;
  } catch {
    return null;
  }
}
