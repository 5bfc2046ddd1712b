/**
 * The picture's SVG drawn on a canvas, as a PNG: the browser draws the SVG itself at the target
 * size (2× draws it at twice the pixels, not a stretched 1× bitmap), so lines and labels stay
 * crisp. The SVG references nothing outside itself, so the canvas stays clean; were it tainted
 * anyway (a browser that counts an SVG image as foreign), `toBlob` throws a SecurityError and
 * the caller says so.
 */

/** Browsers refuse canvases past about this many pixels on a side (Safari: 16,384² in all). */
const MAX_SIDE = 16_384;
const MAX_PIXELS = 16_384 * 16_384;

export class PictureError extends Error {
  constructor(
    message: string,
    readonly reason: 'too-large' | 'tainted' | 'draw',
  ) {
    super(message);
  }
}

/** The SVG as a `data:` URL (the pages' CSP lets images come from `data:`, not from `blob:`). */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export async function rasterize(svg: string, width: number, height: number, scale: number): Promise<Blob> {
  const w = Math.round(width * scale);
  const h = Math.round(height * scale);
  if (w > MAX_SIDE || h > MAX_SIDE || w * h > MAX_PIXELS) throw new PictureError(`The picture would be ${w} × ${h} pixels, more than a browser can draw.`, 'too-large');
  const image = new Image();
  image.width = w;
  image.height = h;
  image.src = svgDataUrl(svg);
  try {
    await image.decode();
  } catch {
    throw new PictureError('The browser could not draw the picture.', 'draw');
  }
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const context = canvas.getContext('2d');
  if (!context) throw new PictureError('The browser could not draw the picture.', 'draw');
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, 0, 0, w, h);
  let blob: Blob | null;
  try {
    blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  } catch (error) {
    if (error instanceof DOMException && error.name === 'SecurityError') {
      throw new PictureError('The browser would not let the map be saved as a PNG: a picture on it comes from another site that does not allow it.', 'tainted');
    }
    throw error;
  }
  if (!blob) throw new PictureError('The browser could not make the PNG (the picture may be too large).', 'draw');
  return blob;
}
