/**
 * The comments of a map for the editor: one controller per map and reader, following the
 * `comments:{mapId}` topic while mounted, with the map's people for mentions. The editor
 * renders what this gives it: the panel in its Comments tab, the pins over its map (the app
 * hands them over, so the editor does not depend on this feature).
 */
import { lazy, Suspense, useEffect, useMemo, type ReactNode } from 'react';
import type { CommentAnchor } from '../../../../events/comments-api';
import type { MapDocument } from '../../../../events/map-document';
import type { Principal } from '../../../../events/principal';
import type { ScreenProjection } from '../../components/map/map-view';
import type { MapPoint } from '../../components/map/types';
import { useLiveClient } from '../../lib/live';
import { CommentsController } from './comments-controller';

// Drawn only in the editor (its own chunk), so the pages around it do not carry them.
const CommentsPanel = lazy(() => import('./comments-panel').then((module) => ({ default: module.CommentsPanel })));
const CommentPins = lazy(() => import('./comment-pins').then((module) => ({ default: module.CommentPins })));

/** What the editor tells the comments about itself. */
export interface CommentsHost {
  document: MapDocument;
  /** The floor shown. */
  layerId: string;
  /** Where the floor's points are on screen: the map's view (the canvas's camera, or MapLibre's on a street basemap floor). */
  screen: ScreenProjection;
  anchorOf: (locationId: string) => MapPoint | null;
  selectedLocationId: string | null;
  onShowPanel: () => void;
  onHidePanel: () => void;
  onShowAnchor: (anchor: CommentAnchor) => void;
}

export interface CommentsView {
  panel: (host: CommentsHost) => ReactNode;
  pins: (host: CommentsHost) => ReactNode;
}

/** The thread named in the address (`?comment={id}`), as mention notices link to it. */
function threadInAddress(): string | null {
  return typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('comment');
}

/** Null when there is nobody to comment (signed out, or exploring a map that is not shared). */
export function useComments(mapId: string, user: Principal | null, enabled: boolean): CommentsView | null {
  const live = useLiveClient();
  const uid = user?.uid ?? null;
  const admin = user?.admin ?? false;
  const controller = useMemo(
    () => (enabled && uid ? new CommentsController({ mapId, me: uid, manages: admin, openThread: threadInAddress() }) : null),
    [enabled, mapId, uid, admin],
  );
  useEffect(() => {
    if (!controller) return;
    const stop = controller.follow(live);
    const people = new AbortController();
    void controller.loadPeople(people.signal);
    return () => {
      stop();
      people.abort();
    };
  }, [controller, live]);
  return useMemo(
    () =>
      controller
        ? {
            panel: (host: CommentsHost) => (
              <Suspense fallback={null}>
                <CommentsPanel
                controller={controller}
                document={host.document}
                selectedLocationId={host.selectedLocationId}
                onShowAnchor={host.onShowAnchor}
                onHidePanel={host.onHidePanel}
                />
              </Suspense>
            ),
            pins: (host: CommentsHost) => (
              <Suspense fallback={null}>
                <CommentPins
                controller={controller}
                document={host.document}
                layerId={host.layerId}
                screen={host.screen}
                anchorOf={host.anchorOf}
                onShowPanel={host.onShowPanel}
                />
              </Suspense>
            ),
          }
        : null,
    [controller],
  );
}
