/**
 * The directions' ties to the address and to time, in the directions' own chunk (the viewer's
 * first chunk only notices that the address names a route, use-directions.ts): on arrival,
 * the route or kiosk the address asks for (`?from=&to=&stepfree=1`, `?here=`); after that, the
 * address follows the route (replaced, not pushed: following a route is not a trail of pages;
 * a kiosk's start stays in its own `here`); and a kiosk starts over after {@link KIOSK_IDLE_MS}
 * without a touch, a click or a key.
 */
import { useEffect, useRef } from 'react';
import { parseDirectionsLink, searchWithRoute, wantsDirections } from './directions-link';
import type { DirectionsState } from './use-directions';

/** A kiosk starts over after this long without anyone touching it. */
export const KIOSK_IDLE_MS = 60_000;

export interface DirectionsSyncProps {
  state: DirectionsState;
  here: string | null;
  /** The map's deep-link feature: the address may say what is open. */
  deepLinks: boolean;
  isPlace: (id: string) => boolean;
  /** What the address asked for on arrival. */
  onArrive: (state: DirectionsState, here: string | null) => void;
  /** The kiosk was left alone: start over. */
  onKioskIdle: (here: string) => void;
}

export function DirectionsSync({ state, here, deepLinks, isPlace, onArrive, onKioskIdle }: DirectionsSyncProps) {
  const arrived = useRef(false);
  useEffect(() => {
    if (arrived.current) return;
    arrived.current = true;
    const link = parseDirectionsLink(window.location.search);
    if (!wantsDirections(link)) return;
    const fixed = link.here && isPlace(link.here) ? link.here : null;
    const valid = (id: string | null) => (id && isPlace(id) ? id : null);
    onArrive({ open: true, from: fixed ?? valid(link.from), to: valid(link.to), stepFree: link.stepFree, step: null }, fixed);
    // Once, on arrival.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The address follows the route (from the render after the arrival's).
  const synced = useRef(false);
  useEffect(() => {
    if (!synced.current) {
      synced.current = true;
      return;
    }
    if (!deepLinks) return;
    const search = searchWithRoute(window.location.search, state.open ? { from: here ? null : state.from, to: state.to, stepFree: state.stepFree } : null);
    if (search === window.location.search) return;
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}${window.location.hash}`);
  }, [state.open, state.from, state.to, state.stepFree, here, deepLinks]);

  const idle = useRef(onKioskIdle);
  idle.current = onKioskIdle;
  useEffect(() => {
    if (!here) return;
    let timer: ReturnType<typeof setTimeout>;
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.current(here), KIOSK_IDLE_MS);
    };
    const events = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
    for (const name of events) window.addEventListener(name, restart, { passive: true, capture: true });
    restart();
    return () => {
      clearTimeout(timer);
      for (const name of events) window.removeEventListener(name, restart, { capture: true });
    };
  }, [here]);

  return null;
}
