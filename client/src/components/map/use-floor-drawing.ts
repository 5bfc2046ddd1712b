/**
 * The floor's file in the renderer (map-renderer.tsx): an SVG fetched, sanitised and inlined
 * with its regions handed to the view (canvas-map-view.ts), or an image; and the regions' names
 * written inside their shapes once the drawing is in. The drawing's code (svg-layer.ts, with
 * DOMPurify and region-names.ts) loads with the first drawing to show.
 */
import { useEffect, useMemo, useRef, type RefObject } from 'react';
import type { CanvasMapView } from './canvas-map-view';
import type { WrittenNames } from './region-names';
import type { Layer, Location, MapDocument } from './types';

const loadSvgLayer = () => import('./svg-layer');

interface FloorDrawing {
  view: CanvasMapView;
  doc: MapDocument;
  layer: Layer;
  onLayer: readonly Location[];
  groupColors: ReadonlyMap<string, string>;
  editable: boolean;
  baseRef: RefObject<HTMLDivElement | null>;
  imageRef: RefObject<HTMLImageElement | null>;
  baseReady: boolean;
  setBaseReady(ready: boolean): void;
  setBaseFailed(failed: boolean): void;
  setNamedRegions(update: (current: ReadonlySet<string>) => ReadonlySet<string>): void;
}

export function useFloorDrawing({ view, doc, layer, onLayer, groupColors, editable, baseRef, imageRef, baseReady, setBaseReady, setBaseFailed, setNamedRegions }: FloorDrawing): void {
  const file = layer.file;
  const { theme } = doc.settings;
  const dark = theme.mode === 'dark';
  const regionSpecList = useMemo(
    () => onLayer.filter((l) => l.element).map((l) => ({ id: l.id, element: l.element!, color: l.color ?? (l.groups[0] ? groupColors.get(l.groups[0]) ?? null : null) })),
    [onLayer, groupColors],
  );
  // By value: the drawing is mounted again only when its regions or colours really change
  // (not for every edit of a location's text in the editor).
  const regionKey = JSON.stringify(regionSpecList);
  const regionSpecs = useMemo(() => JSON.parse(regionKey) as typeof regionSpecList, [regionKey]);
  const { base: regionBase, hover: regionHover, active: regionActive } = doc.styles.regions;
  const regionColors = useMemo(() => ({ base: regionBase, hover: regionHover, active: regionActive }), [regionBase, regionHover, regionActive]);
  useEffect(() => {
    // A server-rendered image may have loaded before React was there to hear it.
    setBaseReady(!file || (file.kind === 'image' && (imageRef.current?.complete ?? false)));
    setBaseFailed(false);
    view.setRegions(new Map());
    const host = baseRef.current;
    if (!file || file.kind !== 'svg' || !host) return;
    let cancelled = false;
    loadSvgLayer().then(({ mountFloor }) => mountFloor(host, file, regionSpecs, { ...regionColors, accent: theme.accent }, editable)).then(
      (regions) => {
        if (cancelled) return;
        view.setRegions(regions);
        setBaseReady(true);
      },
      () => {
        if (cancelled) return;
        setBaseFailed(true);
        setBaseReady(true);
      },
    );
    return () => {
      cancelled = true;
      if (host.shadowRoot) host.shadowRoot.innerHTML = '';
    };
  }, [file, regionSpecs, regionColors, theme.accent, editable, view, baseRef, imageRef, setBaseReady, setBaseFailed]);

  // The regions' names, written inside their shapes once the drawing is mounted, and again
  // when a name, the drawing or the theme changes; in the editor, the drawing offered to the
  // panels that point at its regions (the regions dialog). In the drawing's own chunk
  // (region-names.ts): the viewer's first load has an 80 KB budget.
  const drawnNames = useRef<WrittenNames | null>(null);
  useEffect(() => {
    const svg = baseReady && file?.kind === 'svg' ? baseRef.current?.shadowRoot?.querySelector('svg') : null;
    let cancelled = false;
    // No drawing (a floor without one): nothing to load, and what an earlier floor drew is gone.
    if (svg) {
      void loadSvgLayer().then(({ writeRegionNames }) => {
        const named = cancelled ? null : writeRegionNames(svg, doc, layer.id, view.regions, dark, editable, drawnNames);
        if (named) setNamedRegions(() => named);
      });
    } else {
      drawnNames.current?.withdraw?.();
      drawnNames.current = null;
      setNamedRegions((current) => (current.size === 0 ? current : new Set()));
    }
    return () => {
      cancelled = true;
    };
  }, [baseReady, doc, file, dark, regionSpecs, editable, layer.id, view, baseRef, setNamedRegions]);
  useEffect(() => () => drawnNames.current?.withdraw?.(), []);
}
