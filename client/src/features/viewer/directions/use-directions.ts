/**
 * The directions' state as the viewer's controller holds it (controller/viewer-controller.ts:
 * open or not, the ends, step-free, the step followed), and their code (directions-code.ts),
 * loaded when the visitor opens them or the address names a route or a kiosk. What the address
 * says, and the kiosk's reset, are the code's (directions-sync.tsx).
 */
export type DirectionsCode = typeof import('./directions-code');
let loadedCode: DirectionsCode | null = null;
let loadingCode: Promise<DirectionsCode> | null = null;
/** Loads the directions' code (once). */
export function loadDirectionsCode(): Promise<DirectionsCode> {
  return (loadingCode ??= import('./directions-code').then((code) => (loadedCode = code)));
}
/** The directions' code if it is in already. */
export const loadedDirectionsCode = () => loadedCode;

export interface DirectionsState {
  open: boolean;
  from: string | null;
  to: string | null;
  stepFree: boolean;
  /** The step followed, or null before the visitor starts. */
  step: number | null;
}

export const CLOSED_DIRECTIONS: DirectionsState = { open: false, from: null, to: null, stepFree: false, step: null };
/** An address that names a route or a kiosk (directions-link.ts reads it whole). */
export const ASKS_FOR_DIRECTIONS = /[?&](from|to|here)=/;
