/**
 * The thin hooks between the viewer's controller and React: the controller made once per
 * viewer, its snapshot read with useSyncExternalStore, started with the page and told after
 * each commit (viewer-controller.ts); and the browser's facts the layout follows.
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { MapDocument } from '../../../components/map/types';
import { ViewerController, type ViewerOptions, type ViewerState } from './viewer-controller';

/** The viewer's controller, made with the first render's options, and its state. */
export function useViewerController(doc: MapDocument, options: ViewerOptions, narrow: boolean): [ViewerController, ViewerState] {
  const [controller] = useState(() => new ViewerController(doc, options));
  // The document the viewer shows now (the editor's preview passes each edit).
  // eslint-disable-next-line react-hooks/immutability
  controller.doc = doc;
  // eslint-disable-next-line react-hooks/immutability
  controller.narrow = narrow;
  const state = useSyncExternalStore(controller.subscribe, controller.getSnapshot, controller.getSnapshot);
  useEffect(() => controller.start(), [controller]);
  useEffect(() => controller.committed());
  return [controller, state];
}

export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof matchMedia !== 'function') return () => {};
      const list = matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => typeof matchMedia === 'function' && matchMedia(query).matches,
    () => false,
  );
}

const noSubscription = () => () => {};
/** A fact of the browser that the server cannot know: false on the server and while hydrating. */
export function useBrowserFact(read: () => boolean): boolean {
  return useSyncExternalStore(noSubscription, read, () => false);
}
