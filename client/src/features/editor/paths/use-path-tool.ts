/**
 * Drives the path tool's machine (tools/path-machine.ts, run by the editor controller, which
 * keeps it on the document's network and the floor shown and hands its edits to the session):
 * turns the map's pointer events into its events (map coordinates, the zoom as map units per
 * pixel), through the map's view (`screen`: the canvas's camera, or MapLibre's on a street
 * basemap floor, read at each event since MapLibre's view is made once its code has loaded).
 *
 * Pointer events are read on the editor's canvas in the capture phase, before the map's own
 * gestures: a press on a path point is the tool's (a drag moves the point, the map stays); a
 * press elsewhere goes on to the map too, so dragging the background still pans and the wheel
 * still zooms, and only a press let go where it started lays a point. Clicks never reach the
 * map's picking while a path tool is on (no location opens under a path being drawn).
 */
import { useEffect, useRef } from 'react';
import { useSelector } from '@xstate/react';
import type { Actor } from 'xstate';
import type { Point } from '../../../../../events/map-document';
import type { PathNetwork, PathNode } from '../../../../../events/path-network';
import type { ScreenProjection } from '../../../components/map/map-view';
import { unitsPerPixel } from '../../../components/map/screen-affine';
import type { MapClickMode } from '../controller/editor-controller';
import { DRAG_PX, nodeAt } from '../tools/path-geometry';
import type { pathToolMachine } from '../tools/path-machine';

export type { MapClickMode };

export type PathToolActor = Actor<typeof pathToolMachine>;

export interface UsePathToolOptions {
  /** The path tool's machine (the editor controller's: it keeps it on the network and hands its edits on). */
  actor: PathToolActor;
  /** Where the floor's points are on screen (the view shown's). */
  screen: ScreenProjection;
  /** The editor's canvas element (null while it is not shown). */
  canvas: HTMLElement | null;
  network: PathNetwork;
  layerId: string;
  mode: MapClickMode;
  onAim: (at: Point) => void;
  onPickNode: (node: PathNode | null, at: Point) => void;
}

export function usePathTool(options: UsePathToolOptions): void {
  const live = useRef(options);
  live.current = options;
  const { actor } = options;

  // The drawing ends when the tool is left.
  useEffect(() => {
    if (options.mode !== 'draw') actor.send({ type: 'key', key: 'Escape' });
  }, [actor, options.mode]);

  useEffect(() => {
    const canvas = options.canvas;
    const mode = options.mode;
    if (!canvas || !mode) return;
    // The drawn floor's viewport, or the element MapLibre draws a street basemap floor in.
    const VIEWPORT = '.mf-viewport, .mf-basemap';
    const onMap = (event: Event) => event.target instanceof Element && event.target.closest(VIEWPORT) !== null && event.target.closest('[data-mf-ui]') === null;
    const pointerOf = (event: PointerEvent | MouseEvent) => {
      const { screen } = live.current;
      const viewport = canvas.querySelector(VIEWPORT)!.getBoundingClientRect();
      return { at: screen.toMap(event.clientX - viewport.left, event.clientY - viewport.top), scale: unitsPerPixel(screen), shift: event.shiftKey, alt: event.altKey };
    };
    const pressed = new Set<number>();
    // Where the press began on screen: moved further, a press off the points is the map's pan.
    let start: { x: number; y: number; onNode: boolean } | null = null;
    const onDown = (event: PointerEvent) => {
      if (!onMap(event) || (event.pointerType === 'mouse' && event.button !== 0)) return;
      pressed.add(event.pointerId);
      // A second finger: a pinch, not a click.
      if (pressed.size > 1) {
        actor.send({ type: 'cancel' });
        return;
      }
      if (mode !== 'draw') return;
      const pointer = pointerOf(event);
      const onNode = nodeAt(live.current.network, live.current.layerId, pointer.at, pointer.scale) !== null;
      start = { x: event.clientX, y: event.clientY, onNode };
      if (onNode) {
        // The point's, not the map's: it drags instead of panning.
        event.stopPropagation();
        event.preventDefault();
      }
      actor.send({ type: 'down', ...pointer });
    };
    const onMove = (event: PointerEvent) => {
      if (mode !== 'draw' || pressed.size > 1) return;
      if (pressed.size === 0 && !onMap(event)) return;
      if (start && !start.onNode && Math.hypot(event.clientX - start.x, event.clientY - start.y) > DRAG_PX) {
        // The map pans under the pointer (its map point stays put): no click comes of this press.
        start = null;
        actor.send({ type: 'cancel' });
        return;
      }
      actor.send({ type: 'move', ...pointerOf(event) });
    };
    const onUp = (event: PointerEvent) => {
      if (!pressed.delete(event.pointerId)) return;
      start = null;
      if (mode === 'draw') actor.send({ type: event.type === 'pointercancel' ? 'cancel' : 'up', ...pointerOf(event) });
    };
    const onClick = (event: MouseEvent) => {
      if (!onMap(event)) return;
      event.stopPropagation();
      event.preventDefault();
      if (mode === 'draw') return;
      const pointer = pointerOf(event);
      if (mode === 'aim') live.current.onAim(pointer.at);
      else live.current.onPickNode(nodeAt(live.current.network, live.current.layerId, pointer.at, pointer.scale), pointer.at);
    };
    const onDoubleClick = (event: MouseEvent) => {
      // Quick clicks lay points; they do not zoom.
      if (onMap(event)) event.stopPropagation();
    };
    canvas.addEventListener('pointerdown', onDown, true);
    window.addEventListener('pointermove', onMove, true);
    window.addEventListener('pointerup', onUp, true);
    window.addEventListener('pointercancel', onUp, true);
    canvas.addEventListener('click', onClick, true);
    canvas.addEventListener('dblclick', onDoubleClick, true);
    return () => {
      canvas.removeEventListener('pointerdown', onDown, true);
      window.removeEventListener('pointermove', onMove, true);
      window.removeEventListener('pointerup', onUp, true);
      window.removeEventListener('pointercancel', onUp, true);
      canvas.removeEventListener('click', onClick, true);
      canvas.removeEventListener('dblclick', onDoubleClick, true);
    };
  }, [actor, options.canvas, options.mode]);
}

/** What the path layer draws of the tool's state: the path under way, the rubber band, a drag. */
export function usePathDrawing(actor: PathToolActor) {
  const trail = useSelector(actor, (snapshot) => snapshot.context.trail);
  const cursor = useSelector(actor, (snapshot) => snapshot.context.cursor);
  const drag = useSelector(actor, (snapshot) => snapshot.context.drag);
  const selection = useSelector(actor, (snapshot) => snapshot.context.selection);
  return { trail, cursor, drag, selection };
}
