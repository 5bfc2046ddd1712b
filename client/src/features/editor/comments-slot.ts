/**
 * Where comments (another feature, handed over by the app) sit in the editor: a panel in the
 * Comments tab and pins over the map. The editor gives them what it knows (the document, the
 * floor shown, where its points are on screen, the selected location) and ways to show the panel or a place.
 */
import type { ReactNode, RefObject } from 'react';
import type { CommentAnchor } from '../../../../events/comments-api';
import type { MapDocument } from '../../../../events/map-document';
import type { Camera } from '../../components/map/camera';
import type { ScreenProjection } from '../../components/map/map-view';
import type { MapRendererHandle } from '../../components/map/map-renderer';
import type { MapPoint } from '../../components/map/types';

export interface EditorCommentsHost {
  document: MapDocument;
  layerId: string;
  /** Where the floor's points are on screen: the map's view (the canvas's camera, or MapLibre's on a street basemap floor). */
  screen: ScreenProjection;
  anchorOf: (locationId: string) => MapPoint | null;
  selectedLocationId: string | null;
  onShowPanel: () => void;
  onHidePanel: () => void;
  onShowAnchor: (anchor: CommentAnchor) => void;
}

export interface EditorComments {
  panel: (host: EditorCommentsHost) => ReactNode;
  pins: (host: EditorCommentsHost) => ReactNode;
}

/** The host the editor gives comments, from its own state. */
export function commentsHost(editor: {
  document: MapDocument;
  layerId: string;
  camera: Camera;
  screen: ScreenProjection;
  rendererRef: RefObject<MapRendererHandle | null>;
  selectedLocationId: string | null;
  setLayer: (id: string) => void;
  openPanel: () => void;
  setPanelOpen: (open: boolean) => void;
}): EditorCommentsHost {
  const { document, camera, rendererRef } = editor;
  return {
    document,
    layerId: editor.layerId,
    screen: editor.screen,
    anchorOf: (locationId) => rendererRef.current?.anchorOf(locationId) ?? null,
    selectedLocationId: editor.selectedLocationId,
    onShowPanel: editor.openPanel,
    onHidePanel: () => editor.setPanelOpen(false),
    onShowAnchor: (anchor) => {
      const layer = anchor.kind === 'point' ? anchor.layer : document.locations.find((location) => location.id === anchor.locationId)?.layer;
      if (!layer || !document.layers.some((candidate) => candidate.id === layer)) return;
      editor.setLayer(layer);
      // On a phone the sheet would cover the place.
      editor.setPanelOpen(false);
      // After the floor has switched: centre the map on it.
      requestAnimationFrame(() => {
        const at = anchor.kind === 'point' ? { x: anchor.x, y: anchor.y } : rendererRef.current?.anchorOf(anchor.locationId);
        // Through the map's view (MapLibre's on a street basemap floor; the camera is the drawn floor's).
        const view = rendererRef.current;
        if (!at) return;
        if (view?.ensureVisible) view.ensureVisible(at, 96);
        else camera.ensureVisible(at, 96);
      });
    },
  };
}
