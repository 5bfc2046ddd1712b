/**
 * A picture of the map, made in the browser: the scene (scene.ts), its floor and thumbnails
 * read into `data:` URLs, the SVG (scene-svg.ts), and for a PNG that SVG drawn on a canvas at
 * 1× or 2× (rasterize.ts). The viewer's share menu and the editor's Data panel load this module
 * when a picture is asked for; nothing of it is in the viewer's first load.
 */
import { fetchSvg } from '../svg-layer';
import { FONT } from '../marker-layer';
import { dataUrlOf, drawingFloor } from './floor-drawing';
import { pictureFileName } from './file-name';
import { rasterize } from './rasterize';
import { buildScene, estimateText, layerIsClustered, type ClusterFunction, type PictureLanguage, type Scene, type SceneRequest, type TextMeasure } from './scene';
import { sceneSvg, type PictureFloor } from './scene-svg';
import { regionNamesOf } from '../region-name-list';
import { isBasemapFloor } from '../is-basemap-floor';
import { basemapFrame, liveBasemapOf, stretchFloor, type LiveMap } from './basemap-frame';

export { PictureError } from './rasterize';
export { pictureFileName } from './file-name';

export type PictureFormat = 'png' | 'png@2x' | 'svg';

export interface Picture {
  blob: Blob;
  fileName: string;
  width: number;
  height: number;
  /** Thumbnails from other sites that would not let themselves be copied (drawn as plain discs). */
  missingImages: number;
  /** The floor's file could not be read (the picture has a plain sheet instead). */
  missingFloor: boolean;
}

/** What a picture is made from: the scene's request, in a language (the viewer's, the editor's English). */
export type PictureRequest = Omit<SceneRequest, 'measure' | 'cluster' | 'translator'> & {
  translator: PictureLanguage;
  /**
   * The map view on screen (map-view.ts): on a floor on a street basemap, its MapLibre map is
   * drawn again under the picture (basemap-picture.ts); a drawn floor's view is not needed.
   */
  mapView?: unknown;
  /** The pixels per CSS pixel a basemap is drawn at (the PNG's scale; 2 for SVG and paper). */
  pixelRatio?: number;
};

/** Text measured with a canvas in the picture's font (an estimate where there is no canvas). */
function canvasMeasure(): TextMeasure {
  const context = typeof navigator !== 'undefined' && !/jsdom/i.test(navigator.userAgent) ? document.createElement('canvas').getContext('2d') : null;
  if (!context) return estimateText;
  return (text, size, weight) => {
    context.font = `${weight} ${size}px ${FONT}`;
    return context.measureText(text).width;
  };
}

/** The scene's SVG with its floor and pictures read in. */
export async function pictureSvg(request: PictureRequest): Promise<{ svg: string; scene: Scene; missingImages: number; missingFloor: boolean }> {
  const live = isBasemapFloor(request.layer) ? liveBasemapOf(request.mapView) : null;
  if (live) return basemapPictureSvg(request, live);
  let scene = buildScene({ ...request, measure: canvasMeasure(), ...(layerIsClustered(request.document, request.layer) ? { cluster: await clusterer(request) } : {}) });
  const file = request.layer.file;
  let floor: PictureFloor = { kind: 'none' };
  let missingFloor = false;
  if (file?.kind === 'svg') {
    try {
      // The regions' names, as the map shows them (map-renderer.tsx): written inside their shapes.
      const names = regionNamesOf(request.document, request.layer.id, request.visibleIds ?? null);
      const named = new Set<string>();
      floor = drawingFloor(await fetchSvg(file.url), { regions: scene.regions, accent: scene.accent, width: file.width, height: file.height }, names, named);
      // A region whose name is written needs no label marker over it (it would spill past the shape).
      const byElement = new Set(request.document.locations.filter((location) => location.element && named.has(location.element) && location.layer === request.layer.id).map((location) => location.id));
      scene = { ...scene, markers: scene.markers.filter((marker) => !(marker.type === 'label' && byElement.has(marker.id) && !marker.active)) };
    } catch {
      missingFloor = true;
    }
  } else if (file?.kind === 'image') {
    const href = await dataUrlOf(file.url);
    if (href) floor = { kind: 'image', href };
    else missingFloor = true;
  }
  return withImages(scene, floor, missingFloor);
}

/** The scene's SVG with its thumbnails read in. */
async function withImages(scene: Scene, floor: PictureFloor, missingFloor: boolean): Promise<{ svg: string; scene: Scene; missingImages: number; missingFloor: boolean }> {
  const wanted = [...new Set(scene.markers.flatMap((marker) => (marker.image ? [marker.image] : [])))];
  const read = await Promise.all(wanted.map(async (url) => [url, await imageDataUrl(url)] as const));
  const images = new Map(read.flatMap(([url, href]) => (href ? [[url, href] as const] : [])));
  return { svg: sceneSvg(scene, { floor, images }), scene, missingImages: wanted.length - images.size, missingFloor };
}

/**
 * A floor on a street basemap: the basemap drawn again by MapLibre in the picture's frame (the
 * view on screen, or the whole floor), the markers over it where MapLibre puts their places, and
 * the attribution its tiles ask for. Without WebGL (or a basemap that fails) the markers are
 * drawn on the map's background, and the picture says its floor is missing.
 */
async function basemapPictureSvg(request: PictureRequest, live: LiveMap): Promise<{ svg: string; scene: Scene; missingImages: number; missingFloor: boolean }> {
  const { document: doc, layer } = request;
  const size = { width: layer.file?.width ?? doc.settings.size.width, height: layer.file?.height ?? doc.settings.size.height };
  const container = live.map.getContainer();
  const frame = basemapFrame(request.extent, { width: container.clientWidth, height: container.clientHeight }, size, request.maxSide);
  // Clustered as the canvas clusters a floor of that shape (MapLibre's own clusters are its, on screen).
  const cluster = async (floor: Pick<SceneRequest, 'document' | 'layer'>) => (layerIsClustered(floor.document, floor.layer) ? { cluster: await clusterer(floor) } : {});
  try {
    const { captureBasemap } = await import('./basemap-picture');
    const capture = await captureBasemap(live, frame, request.pixelRatio ?? 2);
    // The frame is the picture's size already (scaled down for paper): no maxSide again.
    const { maxSide: _sized, ...rest } = request;
    const stretched = stretchFloor(doc, layer, capture.stretch);
    const scene = buildScene({ ...rest, ...stretched, extent: 'view', view: capture.view, measure: canvasMeasure(), ...(await cluster(stretched)) });
    return withImages(scene, { kind: 'basemap', href: capture.href, attribution: capture.attribution }, false);
  } catch {
    const scene = buildScene({ ...request, measure: canvasMeasure(), ...(await cluster(request)) });
    return withImages(scene, { kind: 'none' }, true);
  }
}

export async function makePicture(request: PictureRequest, format: PictureFormat): Promise<Picture> {
  const scale = format === 'png@2x' ? 2 : 1;
  const { svg, scene, missingImages, missingFloor } = await pictureSvg({ ...request, pixelRatio: format === 'svg' ? 2 : scale });
  const base = pictureFileName(request.title, request.layer.name);
  if (format === 'svg') {
    return { blob: new Blob([svg], { type: 'image/svg+xml' }), fileName: `${base}.svg`, width: scene.width, height: scene.height, missingImages, missingFloor };
  }
  const blob = await rasterize(svg, scene.width, scene.height, scale);
  return { blob, fileName: `${base}${scale === 2 ? '@2x' : ''}.png`, width: Math.round(scene.width * scale), height: Math.round(scene.height * scale), missingImages, missingFloor };
}

/** The map's clustering (supercluster, loaded for a layer with many points), as the canvas clusters. */
async function clusterer({ document: doc, layer }: Pick<SceneRequest, 'document' | 'layer'>): Promise<ClusterFunction> {
  const { MarkerClusters } = await import('../clustering');
  const width = layer.file?.width ?? doc.settings.size.width;
  const height = layer.file?.height ?? doc.settings.size.height;
  return (points, view, w, h, deepest) => new MarkerClusters(points, { width, height, maxZoom: Math.max(doc.settings.minZoom, doc.settings.maxZoom) }).at(view, w, h, deepest);
}

/**
 * A thumbnail as a `data:` URL: this site's own files are fetched; another site's picture is
 * drawn on a canvas, which it allows only with CORS (`crossorigin`), else it is left out.
 */
async function imageDataUrl(url: string): Promise<string | null> {
  let own: boolean;
  try {
    own = new URL(url, window.location.href).origin === window.location.origin;
  } catch {
    return null;
  }
  if (own) return dataUrlOf(url);
  try {
    const image = new Image();
    image.crossOrigin = 'anonymous';
    image.src = url;
    await image.decode();
    const side = Math.min(image.naturalWidth, image.naturalHeight, 256);
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = side;
    const context = canvas.getContext('2d');
    if (!context || side <= 0) return null;
    const crop = Math.min(image.naturalWidth, image.naturalHeight);
    context.drawImage(image, (image.naturalWidth - crop) / 2, (image.naturalHeight - crop) / 2, crop, crop, 0, 0, side, side);
    // Throws a SecurityError when the site did not allow it (the canvas is then tainted).
    return canvas.toDataURL('image/png');
  } catch {
    return null;
  }
}
