/**
 * The thin React shell over EditorController: one controller per editor session, the map on
 * screen (camera, renderer) as its view, the page's keys and the window's leave/online events
 * handed to it, and its snapshot read with useSyncExternalStore.
 */
import { useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import type { Camera } from '../../../components/map/camera';
import type { MapRendererHandle } from '../../../components/map/map-renderer';
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
        centre: () => camera.toMap(camera.width / 2, camera.height / 2),
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
  return { controller, state, rendererRef };
}
