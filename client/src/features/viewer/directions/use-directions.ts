/**
 * The viewer's directions state, in the viewer's first chunk (kept small): open or not, the
 * ends, step-free, the step followed, a kiosk's fixed start; and the directions' code
 * (directions-code.ts), loaded when the visitor opens them or the address names a route or a
 * kiosk. What the address says, and the kiosk's reset, are the code's (directions-sync.tsx).
 */
import { useCallback, useEffect, useState } from 'react';

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
/** An address that names a route or a kiosk (directions-link.ts reads it whole). */
export const ASKS_FOR_DIRECTIONS = /[?&](from|to|here)=/;

export function useDirections({ allowed, onKioskReset }: { allowed: boolean; onKioskReset: (here: string) => void }) {
  const [state, setState] = useState<DirectionsState>(CLOSED);
  const [here, setHere] = useState<string | null>(null);
  const [code, setCode] = useState<DirectionsCode | null>(loadedCode);

  const load = useCallback(() => {
    if (loadedCode) setCode(loadedCode);
    else void loadDirectionsCode().then(setCode, () => undefined);
  }, []);

  // In the browser (after hydrating the server's page): an address naming a route loads the code.
  useEffect(() => {
    if (allowed && ASKS_FOR_DIRECTIONS.test(window.location.search)) load();
  }, [allowed, load]);

  const arrive = useCallback((next: DirectionsState, fixed: string | null) => {
    setHere(fixed);
    setState(next);
  }, []);
  const kioskIdle = useCallback(
    (fixed: string) => {
      setState({ open: true, from: fixed, to: null, stepFree: false, step: null });
      onKioskReset(fixed);
    },
    [onKioskReset],
  );

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

  return { state, here, code, open, close, change, swap, setStep, arrive, kioskIdle };
}
