/**
 * The kinds of connector between floors (events/path-network.ts), without zod: routing
 * (events/wayfinding/) reads them, and the viewer loads routing on demand without the schemas.
 */
export const CONNECTOR_KINDS = ['lift', 'stairs', 'escalator', 'ramp'] as const;
export type ConnectorKind = (typeof CONNECTOR_KINDS)[number];
/** Connectors a wheelchair, a pushchair or a trolley can use. */
export const STEP_FREE_CONNECTORS: ReadonlySet<ConnectorKind> = new Set(['lift', 'ramp']);
