/**
 * The browser's own Print (Ctrl+P) of a floor on a street basemap (issue 29 item 1): MapLibre
 * draws with WebGL without keeping its drawing buffer (keeping it costs a copy every frame), and
 * such a canvas prints blank. Before printing, the map is drawn once more and read at once (the
 * buffer still holds it), and that picture is laid over the canvas for the paper only
 * (basemap-print.css); after printing it goes. The share menu's Print makes a page of its own
 * (export/print-sheet.ts) and does not need this.
 */
import './basemap-print.css';

/** What is read of a MapLibre map (its `redraw` draws synchronously). */
export interface PrintableMap {
  redraw(): unknown;
  getCanvas(): HTMLCanvasElement;
  getCanvasContainer(): HTMLElement;
}

/** Whether a map view is MapLibre's (MapLibreMapView: its `map`), duck-typed. */
export function printableMapOf(view: unknown): PrintableMap | null {
  const map = (view as { map?: Partial<PrintableMap> } | null)?.map;
  return map && typeof map.redraw === 'function' && typeof map.getCanvas === 'function' && typeof map.getCanvasContainer === 'function' ? (map as PrintableMap) : null;
}

/** Puts the map's picture on paper while printing; answers how to stop. */
export function keepForPrint(map: PrintableMap, target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): () => void {
  let image: HTMLImageElement | null = null;
  const before = () => {
    try {
      map.redraw();
      const src = map.getCanvas().toDataURL('image/png');
      image ??= document.createElement('img');
      image.className = 'mf-basemap-print';
      image.alt = '';
      image.src = src;
      map.getCanvasContainer().append(image);
    } catch {
      // A canvas that cannot be read (a lost context) prints as the browser can.
    }
  };
  const after = () => {
    image?.remove();
    image = null;
  };
  target.addEventListener('beforeprint', before);
  target.addEventListener('afterprint', after);
  return () => {
    target.removeEventListener('beforeprint', before);
    target.removeEventListener('afterprint', after);
    after();
  };
}
