/**
 * The thin React shell over EditorController: one controller per editor session, the map on
 * screen (camera, renderer) as its view, the page's keys and the window's leave/online events
 * handed to it, and its snapshot read with useSyncExternalStore.
 *
 * The renderer's view is also kept as state (`attachView`, the renderer's ref): MapLibre's view
 * of a street basemap floor is made once its code has loaded, and what follows the map on screen
 * (`screen`: others' pointers, the path network, comment pins) subscribes to the view shown.
 */
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { Camera } from '../../../components/map/camera';
import type { MapRendererHandle } from '../../../components/map/map-renderer';
import type { ScreenProjection } from '../../../components/map/map-view';
import type { MapPoint } from '../../../components/map/types';
import type { EditorSession } from '../editor-session';
import { isNarrowScreen } from '../narrow-screen';
import { EditorController, type EditorKey } from './editor-controller';

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select, [contenteditable="true"]') !== null);

/** A browser key event as the controller reads it. */
export function keyOf(event: KeyboardEvent): EditorKey {
  const target = event.target;
  return {
    key: event.key,
    mod: event.ctrlKey || event.metaKey,
    shift: event.shiftKey,
    alt: event.altKey,
    typing: isTyping(target),
    inDialog: target instanceof Element && target.closest('[role="dialog"]') !== null,
    onMap: target instanceof Element && target.closest('.ed-canvas') !== null,
    preventDefault: () => event.preventDefault(),
  };
}

export function useEditorController({ session, camera, explore }: { session: EditorSession; camera: Camera; explore: boolean }) {
  const rendererRef = useRef<MapRendererHandle>(null);
  const controller = useMemo(() => new EditorController({ session }), [session]);
  useMemo(
    () =>
      controller.attachView({
        // Through the map's view (MapLibre's on a street basemap floor; the canvas's camera is the drawn floor's).
        ensureVisible: (at) => (rendererRef.current?.ensureVisible ? rendererRef.current.ensureVisible(at, 96) : camera.ensureVisible(at, 96)),
        anchorOf: (id) => rendererRef.current?.anchorOf(id) ?? null,
        centre: () => {
          const screen = rendererRef.current?.screen ?? camera;
          return screen.toMap(screen.width / 2, screen.height / 2);
        },
        narrow: isNarrowScreen,
        afterPaint: (run) => void requestAnimationFrame(run),
      }),
    [controller, camera],
  );
  useEffect(() => controller.start(), [controller]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => controller.handleKey(keyOf(event));
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [controller]);

  // Nothing typed is lost: the browser asks before leaving with edits still on their way, and
  // sends them as soon as the network is back.
  useEffect(() => {
    if (explore) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (session.getSnapshot().unsaved === 0) return;
      session.flushNow();
      // Kept on this device (IndexedDB): the next visit sends them, no need to ask.
      if (!session.keptOnDevice) event.preventDefault();
    };
    const onOnline = () => session.retryNow();
    window.addEventListener('beforeunload', onBeforeUnload);
    window.addEventListener('online', onOnline);
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload);
      window.removeEventListener('online', onOnline);
    };
  }, [explore, session]);

  const state = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const [view, setView] = useState<MapRendererHandle | null>(null);
  const attachView = useCallback((handle: MapRendererHandle | null) => {
    rendererRef.current = handle;
    setView(handle);
  }, []);
  // Where the floor's points are on screen: the view's (MapLibre's on a street basemap), the camera's before any view.
  const screen: ScreenProjection = view?.screen ?? camera;
  // Brings a point to the middle of the view, at its zoom (another person's avatar, a comment's place).
  const centreOn = useCallback(
    (at: MapPoint) => {
      const current = rendererRef.current;
      if (current && current.screen !== camera && current.ensureVisible) current.ensureVisible(at, Infinity);
      else camera.centerOn(at, camera.zoom, true);
    },
    [camera],
  );
  return { controller, state, rendererRef, attachView, screen, centreOn };
}
