import { MapState } from '../../../../events/map-states';

const LABELS: Record<number, string> = {
  [MapState.test]: 'Test',
  [MapState.live]: 'Live',
  [MapState.demo]: 'Demo',
  [MapState.pro]: 'Pro',
  [MapState.adm]: 'Admin',
};

/** The label of a map state number (spec §4): 0 Test, 1 Live, 2 Demo, 3 Pro, 9 Admin. */
export function mapStateLabel(state: number): string {
  return LABELS[state] ?? `State ${state}`;
}

/** A CSS modifier for the state's badge colour. */
export function mapStateTone(state: number): 'test' | 'live' | 'demo' | 'pro' | 'admin' | 'other' {
  switch (state) {
    case MapState.test:
      return 'test';
    case MapState.live:
      return 'live';
    case MapState.demo:
      return 'demo';
    case MapState.pro:
      return 'pro';
    case MapState.adm:
      return 'admin';
    default:
      return 'other';
  }
}
