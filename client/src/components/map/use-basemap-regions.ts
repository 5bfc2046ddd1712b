/**
 * A basemap floor's regions for its MapLibre view (issue 29 item 1): the floor's drawing (its
 * SVG, in the floor's units) fetched and sanitised as the canvas's floor fetches it
 * (svg-layer.ts fetchSvg, loaded only when the floor has a drawing), the regions its shown
 * locations name read into outlines (basemap-regions.ts), with each region's look, and handed
 * to the view, with the drawing's lines (a file's routes and boundaries, which are no location's).
 * Again when the regions, their colours or the drawing change.
 */
import { useEffect, useMemo, useState } from 'react';
import { drawingLines, pickableOutlines, regionLook, regionOutlines, type RegionLook } from './basemap-regions';
import type { MapLibreMapView } from './maplibre-map-view';
import type { Layer, MapDocument } from './types';

/** Answers how many regions are drawn. */
export function useBasemapRegions(view: MapLibreMapView | null, doc: MapDocument, layer: Layer): number {
  const [drawn, setDrawn] = useState(0);
  const file = layer.file?.kind === 'svg' ? layer.file : null;
  const groupColors = useMemo(() => new Map(doc.groups.map((group) => [group.id, group.color])), [doc.groups]);
  const regionStyles = doc.styles.regions;
  // By value: the drawing is read again only when its regions or their looks really change.
  const key = useMemo(() => {
    const regions = doc.locations
      .filter((location) => location.layer === layer.id && !location.hidden && location.element)
      .map((location) => ({ id: location.id, element: location.element!, look: regionLook(location, groupColors, regionStyles) }));
    // Every region a location of the floor stands for, hidden ones too: the editor's placing does not offer them.
    const linked = doc.locations.filter((location) => location.layer === layer.id && location.element).map((location) => location.element!);
    return JSON.stringify({ regions, linked });
  }, [doc.locations, layer.id, groupColors, regionStyles]);

  useEffect(() => {
    if (!view) return;
    const { regions, linked } = JSON.parse(key) as { regions: Array<{ id: string; element: string; look: RegionLook }>; linked: string[] };
    if (!file) {
      view.setRegions(new Map(), new Map());
      view.setPickable(null);
      setDrawn(0);
      return;
    }
    let cancelled = false;
    view.setRegions(null, new Map());
    view.setPickable(null);
    void import('./svg-layer')
      .then(({ fetchSvg }) => fetchSvg(file.url))
      .then(
        (drawing) => {
          if (cancelled) return;
          // Parsed inert (a template's content runs and loads nothing), as the canvas mounts it.
          const template = document.createElement('template');
          template.innerHTML = drawing.markup;
          const svg = template.content.querySelector('svg');
          const size = { width: file.width, height: file.height };
          const outlines = svg && regions.length > 0 ? regionOutlines(svg, regions, size) : new Map();
          view.setRegions(outlines, new Map(regions.map((region) => [region.id, region.look])), svg ? drawingLines(svg, size) : []);
          setDrawn(outlines.size);
          // The editor's placing links the regions no location stands for (read when first needed).
          view.setPickable(svg ? () => pickableOutlines(svg, new Set(linked), size) : null);
        },
        // A drawing that cannot be read leaves the basemap and its markers as they are.
        () => {
          if (!cancelled) view.setRegions(new Map(), new Map());
        },
      );
    return () => {
      cancelled = true;
    };
  }, [view, file, key]);
  return drawn;
}
