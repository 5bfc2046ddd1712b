/**
 * The invitation link a visitor opened before they could accept it (no account yet, or an
 * address still to verify): kept in this browser so the page that confirms their address can
 * send them on to the map they were invited to. Only the link's token, for as long as the
 * invitation could live.
 */
const KEY = 'mapfold.pendingInvitation';
const KEEP_MS = 14 * 86_400_000;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function rememberInvitation(token: string, now = Date.now()): void {
  try {
    storage()?.setItem(KEY, JSON.stringify({ token, at: now }));
  } catch {
    // Private mode or a full storage: the link in the e-mail still works.
  }
}

/** The token of the invitation still waiting, or null. */
export function pendingInvitation(now = Date.now()): string | null {
  try {
    const raw = storage()?.getItem(KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as { token?: unknown; at?: unknown };
    if (typeof value.token !== 'string' || !/^[A-Za-z0-9_-]{20,128}$/.test(value.token) || typeof value.at !== 'number' || now - value.at > KEEP_MS) return null;
    return value.token;
  } catch {
    return null;
  }
}

export function forgetInvitation(): void {
  try {
    storage()?.removeItem(KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}
