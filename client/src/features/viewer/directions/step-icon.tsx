/** A step's arrow (decorative: the step's sentence says it). */
import type { ConnectorKind } from '../../../../../events/path-network';
import type { RouteStep } from '../../../../../events/wayfinding/route-types';

const PATHS: Record<RouteStep['kind'], string> = {
  depart: 'M12 16a4 4 0 1 0 0-8 4 4 0 0 0 0 8z',
  straight: 'M12 20V5M6 11l6-6 6 6',
  'slight-left': 'M15 20v-7L8 6M8 12V6h6',
  'slight-right': 'M9 20v-7l7-7M16 12V6h-6',
  left: 'M16 20v-8a3 3 0 0 0-3-3H5M9 5L5 9l4 4',
  right: 'M8 20v-8a3 3 0 0 1 3-3h8M15 5l4 4-4 4',
  'sharp-left': 'M17 5v9L7 18M7 12v6h6',
  'sharp-right': 'M7 5v9l10 4M17 12v6h-6',
  'u-turn': 'M8 20V9a4 4 0 0 1 8 0v6M12 12l4 4 4-4',
  connector: 'M7 3h10v18H7zM10 8l2-2 2 2M10 16l2 2 2-2',
  arrive: 'M12 21s-7-6.2-7-11a7 7 0 1 1 14 0c0 4.8-7 11-7 11zM12 12.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z',
};

/** Floor changes by what is taken (a lift's doors, a flight of stairs, an escalator, a ramp). */
const CONNECTORS: Record<ConnectorKind, string> = {
  lift: PATHS.connector,
  stairs: 'M4 20h4v-4h4v-4h4V8h4',
  escalator: 'M3 19h4l9-11h5M7 8V5M5.5 6.5h3',
  ramp: 'M3 19L21 9v10z',
};

export function StepIcon({ kind, connector }: { kind: RouteStep['kind']; connector?: ConnectorKind | undefined }) {
  return (
    <svg className="mf-step__icon" width={20} height={20} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={kind === 'connector' && connector ? CONNECTORS[connector] : PATHS[kind]} />
    </svg>
  );
}
