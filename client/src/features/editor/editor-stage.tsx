/**
 * The editor's stage beside the panels: the map being edited (with the path network, the
 * tools' hints, comment pins and a moved location's published ghost), or the preview, or the
 * timeline; the offer to link a region, the connector dialog, overwrite notices and the toast.
 */
import { Suspense, useState, type ReactNode, type RefObject } from 'react';
import type { Location, MapDocument } from '../../../../events/map-document';
import type { Camera } from '../../components/map/camera';
import type { MapRendererHandle } from '../../components/map/map-renderer';
import type { ScreenProjection } from '../../components/map/map-view';
import { Button } from '../../components/ui/button';
import { clickModeOf, pathsShownOf, type EditorController, type EditorState } from './controller/editor-controller';
import { EditorCanvas } from './editor-canvas';
import { OverwriteNotices } from './overwrite-notices';
import { ConnectorDialog } from './paths/connector-dialog';
import { PathLayer } from './paths/path-layer';
import { usePathTool } from './paths/use-path-tool';
import { PublishedGhost } from './published-ghost';
import { TimelineView } from './timeline/timeline-view';

export interface EditorStageProps {
  controller: EditorController;
  ui: EditorState;
  document: MapDocument;
  layerId: string;
  selected: Location | null;
  camera: Camera;
  rendererRef: RefObject<MapRendererHandle | null>;
  /** Takes the renderer's view as it changes (use-editor-controller.ts's). */
  attachView?: (view: MapRendererHandle | null) => void;
  /** Where the floor's points are on screen now: the view shown's (MapLibre's on a street basemap floor), else the camera. */
  screen?: ScreenProjection;
  mapId: string;
  explore: boolean;
  readOnly: boolean;
  /** The published viewer with the tab's document (suspends while it loads). */
  preview: () => ReactNode;
  /** Comment pins over the map, when there are comments. */
  pins: ReactNode;
}

export function EditorStage({ controller, ui, document: doc, layerId, selected, camera, rendererRef, attachView, screen = camera, mapId, explore, readOnly, preview, pins }: EditorStageProps) {
  const [canvasElement, setCanvasElement] = useState<HTMLDivElement | null>(null);
  const editing = !ui.preview && !ui.timeline;
  usePathTool({ actor: controller.pathTool, screen, canvas: canvasElement, network: doc.paths, layerId, mode: clickModeOf(ui, readOnly), onAim: controller.aim, onPickNode: controller.pickNode });
  const connectorAt = ui.tools.context.connectorAt;
  return (
    <div className="ed-stage">
      {ui.timeline && !explore ? (
        <TimelineView mapId={mapId} document={doc} onClose={controller.closeTimeline} />
      ) : ui.preview ? (
        <Suspense fallback={null}>
          <div className="ed-preview">
            <p className="ed-preview__label">Preview: this is how visitors see the map, with your latest changes.</p>
            {preview()}
          </div>
        </Suspense>
      ) : (
        <EditorCanvas
          document={doc}
          camera={camera}
          layerId={layerId}
          onLayerChange={controller.setLayer}
          selectedId={selected ? selected.id : null}
          onSelect={(id) => controller.select(id)}
          placing={ui.tool === 'placeLocation'}
          onPlacingChange={controller.setPlacing}
          tool={ui.tool}
          onTool={controller.chooseTool}
          canvasRef={setCanvasElement}
          toolHint={toolHintOf(ui, selected)}
          paths={
            pathsShownOf(ui, doc) ? (
              <PathLayer
                screen={screen}
                network={doc.paths}
                layerId={layerId}
                tool={controller.pathTool}
                entrances={selected ? new Set(selected.entrances) : undefined}
                flagged={ui.flagged ?? undefined}
                route={ui.testRoute?.legs.filter((leg) => leg.layer === layerId).map((leg) => leg.points)}
              />
            ) : null
          }
          placingHint={ui.pinHint}
          onPlace={controller.place}
          onPickRegion={controller.pickRegion}
          onMove={controller.move}
          rendererRef={rendererRef}
          {...(attachView ? { attachView } : {})}
          screen={screen}
          overlay={
            <>
              {pins}
              {ui.ghost && ui.ghost.layer === layerId && editing ? (
                <PublishedGhost screen={screen} at={ui.ghost.position} labelSide={(selected?.position?.x ?? -Infinity) > ui.ghost.position.x ? 'left' : 'right'} />
              ) : null}
            </>
          }
          readOnly={readOnly}
        />
      )}
      {ui.regionOffer && editing ? (
        <div className="ed-offer" role="dialog" aria-label="Unlinked region">
          <p>
            The region <strong>{ui.regionOffer.element}</strong> is not a location yet.
          </p>
          <Button size="sm" onClick={controller.acceptRegionOffer}>
            Make it a location
          </Button>
          <Button size="sm" variant="ghost" onClick={controller.dismissRegionOffer}>
            Not now
          </Button>
        </div>
      ) : null}
      {ui.tools.matches({ placeConnector: 'naming' }) && connectorAt && editing ? (
        <ConnectorDialog layers={doc.layers} layerId={layerId} at={connectorAt} onCreate={controller.createConnector} onCancel={controller.cancelConnector} />
      ) : null}
      <OverwriteNotices session={controller.session} />
      <div className="ed-toast" role="status" aria-live="polite">
        {ui.toast ? <span>{ui.toast}</span> : null}
      </div>
    </div>
  );
}

/** What the tools say over the map while they are on (null: nothing). */
function toolHintOf(ui: EditorState, selected: Location | null): ReactNode {
  if (ui.entranceFor) {
    return (
      <>
        Click a path point to make it an entrance of “{selected?.title ?? 'the location'}”. <kbd>Esc</kbd> cancels.
      </>
    );
  }
  if (ui.tool === 'drawPath') {
    return ui.drawing ? (
      <>
        Click to add the next point. <kbd>Esc</kbd> ends the path, <kbd>Backspace</kbd> takes the last point back.
      </>
    ) : (
      <>Click to start a path, Shift-click a point or a link to branch from it, drag a point to move it.</>
    );
  }
  if (ui.tool === 'placeConnector' && ui.tools.matches({ placeConnector: 'aiming' })) {
    return (
      <>
        Click where the lift, stairs, escalator or ramp stands. <kbd>Esc</kbd> cancels.
      </>
    );
  }
  return null;
}
