/**
 * The basemap floor's host as map-renderer.tsx loads it: basemap-renderer.tsx's, with the
 * browser's own Print taken care of (basemap-print.ts: MapLibre's canvas would print blank).
 * The view the host hands to its `ref` is passed on unchanged.
 */
import { useCallback, useRef, type ComponentType } from 'react';
import BasemapOrDrawn from './basemap-renderer';
import { keepForPrint, printableMapOf } from './basemap-print';
import type { MapRendererProps } from './map-renderer';
import type { MapView } from './map-view';

export default function PrintableBasemap({ ref, ...props }: MapRendererProps & { drawn: ComponentType<MapRendererProps> }) {
  const stop = useRef<(() => void) | null>(null);
  const attach = useCallback(
    (view: MapView | null) => {
      stop.current?.();
      const map = printableMapOf(view);
      stop.current = map ? keepForPrint(map) : null;
      if (typeof ref === 'function') ref(view);
      else if (ref) ref.current = view;
    },
    [ref],
  );
  return <BasemapOrDrawn {...props} ref={attach} />;
}
