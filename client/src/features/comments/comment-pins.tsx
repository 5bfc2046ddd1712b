/**
 * Comment pins over the editor's map: one numbered pin per open thread on the floor shown (and
 * the selected one, resolved or not), highlighted when selected; each a button, so the keyboard
 * reaches them. In "Add comment" mode a layer over the map takes the next click: on a location
 * it pins the thread to that location, elsewhere to the point; Enter pins it in the middle of
 * the view and Esc cancels.
 */
import { useEffect, useReducer, useRef, useSyncExternalStore, type MouseEvent } from 'react';
import type { CommentAnchor, MapCommentThread } from '../../../../events/comments-api';
import type { MapDocument } from '../../../../events/map-document';
import type { ScreenProjection } from '../../components/map/map-view';
import type { MapPoint } from '../../components/map/types';
import type { CommentsController } from './comments-controller';
import './comments.css';

export interface CommentPinsProps {
  controller: CommentsController;
  document: MapDocument;
  /** The floor shown. */
  layerId: string;
  /** Where the floor's points are on screen: the map's view (the canvas's camera, or MapLibre's on a street basemap floor). */
  screen: ScreenProjection;
  /** Where a location sits on its floor (the renderer knows regions' middles). */
  anchorOf: (locationId: string) => MapPoint | null;
  /** Shows the Comments panel (a pin chosen, a place picked). */
  onShowPanel: () => void;
}

/** A click this close to a location's marker (in pixels) pins the thread to the location. */
const LOCATION_HIT_PX = 18;

/** Where an anchor is on the floor shown, in map coordinates; null when it is on another floor (or gone). */
export function anchorPoint(anchor: CommentAnchor, document: MapDocument, layerId: string, anchorOf: (locationId: string) => MapPoint | null): MapPoint | null {
  if (anchor.kind === 'point') return anchor.layer === layerId ? { x: anchor.x, y: anchor.y } : null;
  const location = document.locations.find((candidate) => candidate.id === anchor.locationId);
  if (!location || location.layer !== layerId) return null;
  return anchorOf(location.id);
}

export function CommentPins({ controller, document, layerId, screen: projection, anchorOf, onShowPanel }: CommentPinsProps) {
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const [, redraw] = useReducer((count: number) => count + 1, 0);
  // Pins follow the map as it pans and zooms.
  useEffect(() => projection.onFrame(redraw), [projection]);
  // Once the renderer is there (it answers where locations are only after its first paint), and
  // whenever the floor or its drawing changes: a region's middle is known once it is drawn.
  useEffect(() => {
    const frame = requestAnimationFrame(redraw);
    return () => cancelAnimationFrame(frame);
  }, [document, layerId]);
  const { threads, numbers, selectedId, mode } = snapshot;
  const picking = mode.kind === 'picking';
  const show = useRef(onShowPanel);
  show.current = onShowPanel;

  // Opened from a mention notice's link: its thread, in the panel, once the comments are here.
  useEffect(() => {
    if (threads && controller.takeOpenThread()) show.current();
  }, [threads, controller]);

  const pinAt = (anchor: CommentAnchor) => {
    controller.pin(anchor);
    show.current();
  };

  useEffect(() => {
    if (!picking) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') controller.cancel();
      else if (event.key === 'Enter' && event.target instanceof Element && event.target.closest('.cm-pick, .mf-map')) {
        event.preventDefault();
        const centre = projection.toMap(projection.width / 2, projection.height / 2);
        controller.pin({ kind: 'point', x: Math.round(centre.x * 10) / 10, y: Math.round(centre.y * 10) / 10, layer: layerId });
        show.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [picking, controller, projection, layerId]);

  const pick = (event: MouseEvent<HTMLDivElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const x = event.clientX - rect.left;
    const y = event.clientY - rect.top;
    let nearest: { id: string; distance: number } | null = null;
    for (const location of document.locations) {
      if (location.layer !== layerId) continue;
      const at = anchorOf(location.id);
      if (!at) continue;
      const screen = projection.toScreen(at);
      const distance = Math.hypot(screen.x - x, screen.y - y);
      if (distance <= LOCATION_HIT_PX && (!nearest || distance < nearest.distance)) nearest = { id: location.id, distance };
    }
    if (nearest) return pinAt({ kind: 'location', locationId: nearest.id });
    const point = projection.toMap(x, y);
    pinAt({ kind: 'point', x: Math.round(point.x * 10) / 10, y: Math.round(point.y * 10) / 10, layer: layerId });
  };

  const shown: Array<{ thread: MapCommentThread; at: MapPoint }> = [];
  for (const thread of threads ?? []) {
    if (thread.resolved && thread.threadId !== selectedId) continue;
    const point = anchorPoint(thread.anchor, document, layerId, anchorOf);
    if (point) shown.push({ thread, at: projection.toScreen(point) });
  }
  const draft = mode.kind === 'drafting' ? anchorPoint(mode.anchor, document, layerId, anchorOf) : null;
  const draftAt = draft ? projection.toScreen(draft) : null;

  return (
    <>
      <div className="cm-pins" data-mf-ui="">
        {shown.map(({ thread, at }) => {
          const number = numbers.get(thread.threadId) ?? 0;
          const first = thread.comments.find((comment) => !comment.deleted);
          const selected = thread.threadId === selectedId;
          return (
            <button
              key={thread.threadId}
              type="button"
              className="cm-pin"
              data-selected={selected || undefined}
              data-resolved={thread.resolved || undefined}
              style={{ transform: `translate(${Math.round(at.x)}px, ${Math.round(at.y)}px)` }}
              aria-pressed={selected}
              aria-label={`Comment thread ${number}${first ? ` by ${first.author.displayName}: ${first.body.slice(0, 80)}` : ''}`}
              onClick={() => {
                // Always opens it (on a phone the sheet may be hidden): the panel's Close deselects.
                controller.select(thread.threadId);
                show.current();
              }}
            >
              <span>{number}</span>
            </button>
          );
        })}
        {draftAt ? (
          <span className="cm-pin cm-pin--draft" style={{ transform: `translate(${Math.round(draftAt.x)}px, ${Math.round(draftAt.y)}px)` }} aria-hidden="true">
            <span>+</span>
          </span>
        ) : null}
      </div>
      {picking ? (
        <>
          <div className="cm-pick" data-mf-ui="" tabIndex={0} role="button" aria-label="Pin the comment here: click a point or a location on the map, or press Enter for the middle of the view" onClick={pick} />
          <p className="cm-pick__hint" role="status" data-mf-ui="">
            Click where the comment belongs, or a location. <kbd>Enter</kbd> pins it in the middle, <kbd>Esc</kbd> cancels.
          </p>
        </>
      ) : null}
    </>
  );
}
