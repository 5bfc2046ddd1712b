/**
 * What the open panel shows (the rail's tab), wired to the editor controller's commands: the
 * locations, the path network, the floors, groups, settings, insights, publishing, the embeds,
 * data in and out, the history and the comments.
 */
import type { ReactNode, RefObject } from 'react';
import type { MapDocument } from '../../../../events/map-document';
import { usesTestSlot } from '../../../../events/map-states';
import type { HistoryEntry } from '../../../../events/read-models';
import { DIRECTIONS_STATES } from '../../../../events/wayfinding/directions-allowed';
import type { Camera } from '../../components/map/camera';
import type { MapRendererHandle } from '../../components/map/map-renderer';
import { appliedNotice } from '../../lib/import/import-machine';
import { undoHint, type EditorController, type EditorState } from './controller/editor-controller';
import type { EditorComments, EditorCommentsHost } from './comments-slot';
import { GroupsPanel } from './panels/groups-panel';
import { HistoryPanel } from './panels/history-panel';
import { ImportExportPanel } from './panels/import-export-panel';
import { InsightsPanel } from './panels/insights-panel';
import { LayersPanel } from './panels/layers-panel';
import { LocationsPanel } from './panels/locations-panel';
import { PublishPanel } from './panels/publish-panel';
import { SettingsPanel } from './panels/settings-panel';
import { SharePanel } from './panels/share-panel';
import { NetworkCheck } from './paths/network-check';
import { PathsPanel } from './paths/paths-panel';
import { RouteTest } from './paths/route-test';

export interface EditorPanelContentProps {
  controller: EditorController;
  ui: EditorState;
  document: MapDocument;
  layerId: string;
  selectedId: string | null;
  camera: Camera;
  /** The map's view on screen (the canvas's, or MapLibre's on a street basemap floor): for the picture. */
  rendererRef: RefObject<MapRendererHandle | null>;
  mapId: string;
  title: string;
  /** The map's state (its plan), null for a map not yet published. */
  state: number | null;
  explore: boolean;
  readOnly: boolean;
  /** The map's history entries; null where they are not shown (exploring, no feed). */
  history: readonly HistoryEntry[] | null;
  comments: EditorComments | null;
  commentsHost: EditorCommentsHost | null;
}

export function EditorPanelContent(props: EditorPanelContentProps): ReactNode {
  const { controller, ui, document: doc, layerId, camera, mapId, title, state, explore, readOnly } = props;
  const session = controller.session;
  // The viewer shows directions on Professional maps and the product's own (the demo): elsewhere the panel says so.
  const directionsPublished = explore || (state !== null && DIRECTIONS_STATES.has(state));
  switch (ui.tab) {
    case 'locations':
      return (
        <LocationsPanel
          document={doc}
          onEdit={session.apply}
          currentLayerId={layerId}
          selectedId={props.selectedId}
          onSelect={(id) => controller.select(id, { focus: true })}
          onPickEntrance={readOnly ? undefined : controller.pickEntrance}
          onStartAdding={controller.startAdding}
          mapId={mapId}
        />
      );
    case 'paths':
      return (
        <PathsPanel
          document={doc}
          onEdit={controller.editPaths}
          layerId={layerId}
          tool={ui.tool}
          onTool={controller.choosePathTool}
          selection={ui.pathSelection}
          onSelect={controller.selectPath}
          directionsPublished={directionsPublished}
        >
          <NetworkCheck document={doc} onFlagged={controller.setFlagged} onShowLocation={controller.showCheckedLocation} onShowPoint={controller.showPathPoint} />
          <RouteTest document={doc} onRoute={controller.setTestRoute} onShow={controller.showOnMap} />
        </PathsPanel>
      );
    case 'floors':
      return (
        <LayersPanel
          document={doc}
          onEdit={session.apply}
          currentLayerId={layerId}
          onSelectLayer={controller.setLayer}
          onPickPoint={controller.pickPoint}
          {...(!explore && !readOnly
            ? {
                regionImport: {
                  mapId,
                  onMade: (made: number, floorName: string) => {
                    controller.toast(`${made === 1 ? '1 location' : `${made.toLocaleString('en-US')} locations`} made from the regions of ${floorName}. ${undoHint()}`);
                  },
                },
              }
            : {})}
        />
      );
    case 'groups':
      return <GroupsPanel document={doc} onEdit={session.apply} />;
    case 'style':
      return (
        <SettingsPanel
          document={doc}
          onEdit={session.apply}
          mapId={mapId}
          onUseCurrentView={() => {
            // The view shown: MapLibre's on a street basemap floor (its zoom relative to the floor fitted, as it opens at it), else the camera's.
            const screen = props.rendererRef.current?.screen ?? camera;
            if (screen.width <= 0) return null;
            const centre = screen.toMap(screen.width / 2, screen.height / 2);
            return { x: Math.round(centre.x), y: Math.round(centre.y), zoom: Math.round(screen.zoom * 100) / 100 };
          }}
        />
      );
    case 'insights':
      return <InsightsPanel mapId={mapId} published={state !== null && !usesTestSlot(state)} onToast={controller.toast} />;
    case 'publish':
      return <PublishPanel mapId={mapId} title={title} state={state} onShowLocation={controller.showPublishedChange} />;
    case 'share':
      return <SharePanel mapId={mapId} title={title} state={state ?? 0} isTest={state === null || usesTestSlot(state)} publicUrl={window.location.origin} />;
    case 'data':
      return (
        <ImportExportPanel
          document={doc}
          onEdit={session.apply}
          mapId={mapId}
          title={title}
          canDownload={!explore}
          canImport={!explore && !readOnly}
          onImportStart={session.serverStepStarted}
          picture={{ camera, layerId, mapView: () => props.rendererRef.current, onNotice: controller.toast }}
          onImported={(preview, name) => {
            // Recorded by the server: its events come over the live hub, and undo takes them back.
            if (preview.revision) session.serverStepDone(BigInt(preview.revision));
            controller.toast(`${appliedNotice(preview, name)} ${undoHint()}`);
          }}
          onServerStep={(revision, notice) => {
            session.serverStepDone(BigInt(revision));
            controller.toast(`${notice} ${undoHint()}`);
          }}
        />
      );
    case 'history':
      return <HistoryPanel mapId={mapId} history={props.history} readOnly={readOnly} onOpenTimeline={controller.openTimeline} onRestored={controller.toast} />;
    case 'comments':
      return props.commentsHost && props.comments ? props.comments.panel(props.commentsHost) : null;
    default: {
      const unreachable: never = ui.tab;
      return unreachable;
    }
  }
}
