/**
 * The editor's map: the viewer's renderer with editing on (drag a marker to move it; in "add"
 * mode a click places a new location, or links the drawing's region under the pointer), the
 * tool switch, the floor switcher and the zoom controls over it. On a floor on a street basemap
 * the renderer is MapLibre's view (components/map/basemap-renderer.tsx), which takes the same
 * editing (dragging markers, placing); the zoom controls go through the view, not the camera,
 * and so do others' pointers and selections (the view's `screen`, handed down once it exists).
 */
import { useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { isBasemapCalibration, type MapDocument } from '../../../../events/map-document';
import type { Camera } from '../../components/map/camera';
import type { ScreenProjection } from '../../components/map/map-view';
import { MapRenderer, type MapRendererHandle } from '../../components/map/map-renderer';
import type { Location, MapPoint } from '../../components/map/types';
import { PresenceOverlay, usePresencePointer } from './presence';
import { EditorIcon } from './editor-icons';
import type { ToolName } from './tools/tools-machine';

export interface EditorCanvasProps {
  document: MapDocument;
  camera: Camera;
  layerId: string;
  onLayerChange: (id: string) => void;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  placing: boolean;
  onPlacingChange: (placing: boolean) => void;
  /** The tool the map is in (tools/tools-machine.ts): the path tools take the map's clicks. */
  tool?: ToolName;
  onTool?: (tool: ToolName) => void;
  /** What the path tools say over the map while they are on. */
  toolHint?: ReactNode;
  /** The path network's drawing (paths/path-layer.tsx), when shown. */
  paths?: ReactNode;
  /** The canvas element, for the path tool's pointer events. */
  canvasRef?: (element: HTMLDivElement | null) => void;
  /** What the placing hint says instead of placing a location (a calibration pin). */
  placingHint?: string | null;
  /** Place a new location at a point of the current layer. */
  onPlace: (at: MapPoint) => void;
  /** A region of the drawing no location stands for was clicked. */
  onPickRegion: (elementId: string, at: MapPoint) => void;
  onMove: (id: string, to: MapPoint) => void;
  rendererRef?: RefObject<MapRendererHandle | null>;
  /** Takes the renderer's view as it changes (a ref: MapLibre's comes once loaded); it sets `rendererRef` itself. */
  attachView?: (view: MapRendererHandle | null) => void;
  /** Where the floor's points are on screen: the view shown's (the camera by default). */
  screen?: ScreenProjection;
  /** Drawn over the map, under its controls (comment pins). */
  overlay?: ReactNode;
  /** A viewer's map: select and look, no tools, nothing dragged or placed. */
  readOnly?: boolean;
}

const describe = (location: Location) => (location.about ? `${location.title}, ${location.about}` : location.title);

export function EditorCanvas(props: EditorCanvasProps) {
  const { document: doc, camera, layerId, selectedId, readOnly = false } = props;
  const placing = props.placing && !readOnly;
  const tool = props.tool ?? (placing ? 'placeLocation' : 'select');
  // A path tool on: no marker is dragged, the cursor is a crosshair.
  const pathTool = !readOnly && (tool === 'drawPath' || tool === 'placeConnector');
  const selectTool = (next: ToolName) => (props.onTool ? props.onTool(next) : props.onPlacingChange(next === 'placeLocation'));
  const ownRef = useRef<MapRendererHandle>(null);
  const rendererRef = props.rendererRef ?? ownRef;
  const layer = doc.layers.find((candidate) => candidate.id === layerId) ?? doc.layers[0]!;
  const screen = props.screen ?? camera;
  const pointer = usePresencePointer(screen, layer.id);
  // Through the map's view, whichever draws the floor (the canvas's camera, or MapLibre on a street basemap).
  const zoomBy = (factor: number) => (rendererRef.current ? rendererRef.current.zoomBy(factor) : camera.zoomBy(factor, undefined, undefined, true));
  const onBasemap = Boolean(layer.basemap && isBasemapCalibration(layer.geo));
  const live = useRef(props);
  live.current = props;
  // Stable handlers: the renderer reads them through a ref anyway, and they never re-subscribe.
  const editing = useMemo(
    () => ({
      onMove: (id: string, to: MapPoint) => live.current.onMove(id, to),
      onPickRegion: (element: string, at: MapPoint) => live.current.onPickRegion(element, at),
    }),
    [],
  );

  return (
    <div ref={props.canvasRef} className="ed-canvas" data-placing={placing || pathTool ? 'true' : undefined} data-tool={tool} {...pointer}>
      <MapRenderer
        ref={props.attachView ?? rendererRef}
        document={doc}
        layer={layer}
        camera={camera}
        selectedId={selectedId}
        visibleIds={null}
        describe={describe}
        label={`Map editor, ${layer.name}`}
        onSelect={(id) => props.onSelect(id)}
        onBackgroundClick={(at) => {
          if (live.current.placing && !live.current.readOnly) live.current.onPlace(at);
          else live.current.onSelect(null);
        }}
        {...(readOnly ? {} : { editing: { ...editing, placing: placing || pathTool } })}
      >
        {props.paths}
        <PresenceOverlay screen={screen} document={doc} layerId={layer.id} anchorOf={(id) => rendererRef.current?.anchorOf(id) ?? null} />
        {props.overlay}
        {readOnly ? null : (
          <div className="ed-canvas__tools" role="toolbar" aria-label="Tools" data-mf-ui="">
            <button type="button" className="ed-tool" aria-label="Select" aria-pressed={tool === 'select'} onClick={() => selectTool('select')} title="Select and move (V)">
              <EditorIcon name="cursor" />
              <span>Select</span>
            </button>
            <button type="button" className="ed-tool" aria-label="Add location" aria-pressed={placing} onClick={() => selectTool(placing ? 'select' : 'placeLocation')} title="Add a location (A)">
              <EditorIcon name="addPin" />
              <span>Add location</span>
            </button>
            {props.onTool ? (
              <>
                <button type="button" className="ed-tool" aria-label="Draw paths" aria-pressed={tool === 'drawPath'} onClick={() => selectTool(tool === 'drawPath' ? 'select' : 'drawPath')} title="Draw paths (P)">
                  <EditorIcon name="path" />
                  <span>Paths</span>
                </button>
                <button type="button" className="ed-tool" aria-label="Add connector" aria-pressed={tool === 'placeConnector'} onClick={() => selectTool(tool === 'placeConnector' ? 'select' : 'placeConnector')} title="Add a lift, stairs, escalator or ramp (C)">
                  <EditorIcon name="connector" />
                  <span>Connector</span>
                </button>
              </>
            ) : null}
          </div>
        )}
        {placing ? (
          <p className="ed-canvas__hint" role="status" data-mf-ui="">
            {props.placingHint ?? (
              <>
                {onBasemap && !layer.file ? 'Click the map where the location is.' : 'Click the map to place the location, or a region of the drawing to link it.'} <kbd>Enter</kbd> places it in the middle,{' '}
                <kbd>Esc</kbd> cancels.
              </>
            )}
          </p>
        ) : props.toolHint && !readOnly ? (
          <p className="ed-canvas__hint" role="status" data-mf-ui="">
            {props.toolHint}
          </p>
        ) : null}
        {doc.layers.length > 1 ? (
          <div className="ed-canvas__floors" role="group" aria-label="Floors" data-mf-ui="">
            {doc.layers.map((candidate) => (
              <button key={candidate.id} type="button" className="ed-floor" aria-pressed={candidate.id === layer.id} onClick={() => props.onLayerChange(candidate.id)}>
                {candidate.name}
              </button>
            ))}
          </div>
        ) : null}
        <div className="ed-canvas__zoom" role="group" aria-label="Zoom" data-mf-ui="">
          <button type="button" className="ed-icon-button" aria-label="Zoom in" onClick={() => zoomBy(1.6)}>
            <EditorIcon name="plus" />
          </button>
          <button type="button" className="ed-icon-button" aria-label="Zoom out" onClick={() => zoomBy(1 / 1.6)}>
            <EditorIcon name="minus" />
          </button>
          <button type="button" className="ed-icon-button" aria-label="Reset view" onClick={() => (rendererRef.current ? rendererRef.current.resetView(true) : camera.reset())}>
            <EditorIcon name="reset" />
          </button>
        </div>
      </MapRenderer>
    </div>
  );
}
