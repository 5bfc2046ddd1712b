/**
 * Deep links: `?location={id}` names the open location. Opening a location from a closed
 * state pushes a history entry, so the browser's back button closes it again; switching to
 * another location replaces the entry; closing goes back when the entry is ours.
 * Whatever else is in the history state (a router's) is kept.
 */
export const LOCATION_PARAM = 'location';

interface OwnState {
  mfLocation?: string | null;
  /** This entry was pushed by the viewer (closing may go back). */
  mfPushed?: boolean;
}

function currentState(): Record<string, unknown> & OwnState {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
}

function urlWith(id: string | null): string {
  const url = new URL(window.location.href);
  if (id) url.searchParams.set(LOCATION_PARAM, id);
  else url.searchParams.delete(LOCATION_PARAM);
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The location the address names, if any. */
export function locationFromUrl(): string | null {
  return new URLSearchParams(window.location.search).get(LOCATION_PARAM);
}

/** Records that `id` is open: a new entry when nothing was open, else the same entry. */
export function pushLocation(id: string): void {
  const state = currentState();
  if (locationFromUrl() === null) window.history.pushState({ ...state, mfLocation: id, mfPushed: true }, '', urlWith(id));
  else window.history.replaceState({ ...state, mfLocation: id }, '', urlWith(id));
}

/**
 * Records that nothing is open. Answers true when it went back in history (the caller then
 * hears a popstate), false when it rewrote the address in place.
 */
export function clearLocation(): boolean {
  if (locationFromUrl() === null) return false;
  if (currentState().mfPushed) {
    window.history.back();
    return true;
  }
  const { mfLocation: _location, mfPushed: _pushed, ...rest } = currentState();
  window.history.replaceState(rest, '', urlWith(null));
  return false;
}
