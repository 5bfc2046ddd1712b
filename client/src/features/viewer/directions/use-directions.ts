/**
 * The viewer's directions state (in the viewer's first chunk, small): open or not, the ends,
 * step-free, the step followed; the address kept in step with it (`?from=&to=&stepfree=1`,
 * replaced, not pushed: following a route is not a trail of pages); the kiosk's fixed start
 * (`?here=`) and its reset after {@link KIOSK_IDLE_MS} without a touch, a click or a key; and
 * the directions' code (directions-code.ts), loaded when first needed.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { parseDirectionsLink, searchWithRoute, wantsDirections } from './directions-link';

/** A kiosk starts over after this long without anyone touching it. */
export const KIOSK_IDLE_MS = 60_000;

export type DirectionsCode = typeof import('./directions-code');
let loadedCode: DirectionsCode | null = null;
let loadingCode: Promise<DirectionsCode> | null = null;
/** Loads the directions' code (once). */
export function loadDirectionsCode(): Promise<DirectionsCode> {
  return (loadingCode ??= import('./directions-code').then((code) => (loadedCode = code)));
}

export interface DirectionsState {
  open: boolean;
  from: string | null;
  to: string | null;
  stepFree: boolean;
  /** The step followed, or null before the visitor starts. */
  step: number | null;
}

const CLOSED: DirectionsState = { open: false, from: null, to: null, stepFree: false, step: null };

export interface UseDirectionsOptions {
  /** The map offers directions (events/wayfinding/directions-allowed.ts). */
  allowed: boolean;
  /** The address may say what is open (the map's deep-link feature). */
  deepLinks: boolean;
  /** Whether an id is a place one can route to or from. */
  isPlace: (id: string) => boolean;
  /** The kiosk starts over: the viewer closes what is open and goes back to its home view. */
  onKioskReset: (here: string) => void;
}

export function useDirections({ allowed, deepLinks, isPlace, onKioskReset }: UseDirectionsOptions) {
  const [state, setState] = useState<DirectionsState>(CLOSED);
  const [here, setHere] = useState<string | null>(null);
  const [code, setCode] = useState<DirectionsCode | null>(loadedCode);
  const linkRead = useRef(false);

  const load = useCallback(() => {
    if (loadedCode) setCode(loadedCode);
    else void loadDirectionsCode().then(setCode, () => undefined);
  }, []);

  // The address's directions, once the page is in the browser (after hydrating the server's page).
  useEffect(() => {
    linkRead.current = true;
    if (!allowed) return;
    const link = parseDirectionsLink(window.location.search);
    if (!wantsDirections(link)) return;
    const fixed = link.here && isPlace(link.here) ? link.here : null;
    setHere(fixed);
    const valid = (id: string | null) => (id && isPlace(id) ? id : null);
    setState({ open: true, from: fixed ?? valid(link.from), to: valid(link.to), stepFree: link.stepFree, step: null });
    load();
    // Read once, at start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The address follows the route (a kiosk's start stays in its own `here`).
  useEffect(() => {
    if (!linkRead.current || !deepLinks || !allowed) return;
    const search = searchWithRoute(window.location.search, state.open ? { from: here ? null : state.from, to: state.to, stepFree: state.stepFree } : null);
    if (search === window.location.search) return;
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}${window.location.hash}`);
  }, [state.open, state.from, state.to, state.stepFree, here, deepLinks, allowed]);

  // A kiosk starts over after a minute nobody used it.
  const resetRef = useRef(onKioskReset);
  resetRef.current = onKioskReset;
  useEffect(() => {
    if (!here) return;
    let timer: ReturnType<typeof setTimeout>;
    const restart = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        setState({ open: true, from: here, to: null, stepFree: false, step: null });
        resetRef.current(here);
      }, KIOSK_IDLE_MS);
    };
    const events = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;
    for (const name of events) window.addEventListener(name, restart, { passive: true, capture: true });
    restart();
    return () => {
      clearTimeout(timer);
      for (const name of events) window.removeEventListener(name, restart, { capture: true });
    };
  }, [here]);

  const open = useCallback(
    (ends: { from?: string | null; to?: string | null } = {}) => {
      load();
      setState((before) => {
        let from = here ?? (ends.from !== undefined ? ends.from : before.from);
        let to = ends.to !== undefined ? ends.to : before.to;
        // A place given now replaces the other end when they would be the same.
        if (from !== null && from === to && !here) {
          if (ends.to !== undefined) from = null;
          else to = null;
        }
        return { ...before, open: true, from, to, step: null };
      });
    },
    [load, here],
  );
  const close = useCallback(() => setState((before) => ({ ...before, open: false, step: null })), []);
  const change = useCallback(
    (next: { from?: string | null; to?: string | null; stepFree?: boolean }) =>
      setState((before) => ({ ...before, ...next, ...(here ? { from: here } : {}), step: null })),
    [here],
  );
  const swap = useCallback(() => setState((before) => (here ? before : { ...before, from: before.to, to: before.from, step: null })), [here]);
  const setStep = useCallback((step: number | null) => setState((before) => ({ ...before, step })), []);

  return { state, here, code, open, close, change, swap, setStep };
}
