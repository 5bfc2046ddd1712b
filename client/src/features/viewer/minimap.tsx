/**
 * The minimap: the whole layer in small, with a frame around the part in view. Dragging or
 * clicking in it moves the view there. A pointer helper only (keyboard users have the arrow
 * keys), so it is hidden from assistive technology.
 *
 * Not on a floor on a street basemap: a street map is read by panning and zooming it, as every
 * web map is (MapLibre's, Google's and Felt's have no overview either), and the floor's whole
 * extent is a country or a region the reset button shows at once. The editor's setting says so.
 */
import { useLayoutEffect, useRef, type PointerEvent } from 'react';
import type { Camera } from '../../components/map/camera';
import type { Layer } from '../../components/map/types';
import { isBasemapFloor } from '../../components/map/is-basemap-floor';

const MAX_WIDTH = 168;
const MAX_HEIGHT = 120;

export interface MinimapProps {
  camera: Camera;
  layer: Layer;
  width: number;
  height: number;
  background: string;
  small?: boolean;
}

export function Minimap({ camera, layer, width, height, background, small = false }: MinimapProps) {
  const frameRef = useRef<HTMLDivElement>(null);
  const fraction = small ? 0.72 : 1;
  const scale = Math.min((MAX_WIDTH * fraction) / width, (MAX_HEIGHT * fraction) / height);
  const w = Math.round(width * scale);
  const h = Math.round(height * scale);

  useLayoutEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    const place = () => {
      const a = camera.toMap(0, 0);
      const b = camera.toMap(camera.width, camera.height);
      const x0 = Math.max(0, a.x) * scale;
      const y0 = Math.max(0, a.y) * scale;
      const x1 = Math.min(width, b.x) * scale;
      const y1 = Math.min(height, b.y) * scale;
      const whole = x0 <= 0.5 && y0 <= 0.5 && x1 >= w - 0.5 && y1 >= h - 0.5;
      frame.style.opacity = whole ? '0' : '1';
      frame.style.transform = `translate(${x0}px, ${y0}px)`;
      frame.style.width = `${Math.max(4, x1 - x0)}px`;
      frame.style.height = `${Math.max(4, y1 - y0)}px`;
    };
    place();
    return camera.onFrame(place);
  }, [camera, scale, width, height, w, h]);

  const moveTo = (event: PointerEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    camera.centerOn({ x: (event.clientX - rect.left) / scale, y: (event.clientY - rect.top) / scale }, camera.zoom, event.type === 'pointerdown');
  };

  if (isBasemapFloor(layer)) return null;
  return (
    <div
      className="mf-minimap"
      data-mf-ui=""
      aria-hidden="true"
      style={{ width: w, height: h, background }}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        moveTo(event);
      }}
      onPointerMove={(event) => {
        if (event.buttons) moveTo(event);
      }}
    >
      {layer.file ? <img src={layer.file.url} alt="" width={w} height={h} draggable={false} /> : null}
      <div ref={frameRef} className="mf-minimap__frame" />
    </div>
  );
}
