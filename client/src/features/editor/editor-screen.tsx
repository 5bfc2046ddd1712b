/**
 * The map editor (/maps/{id}): the map on a canvas, panels for locations, floors, groups, the
 * map's look, publishing and data; undo and redo; a preview of the published viewer. Every edit
 * is applied at once and saved as it is made (no Save button); the status line says where the
 * work stands, and another open editor of the same map sees each edit appear.
 *
 * Someone else's map (the demo behind /demo) opens for exploring: every edit works, stays in the
 * tab, and the page offers to sign up (or make one's own copy) to keep it.
 */
import { Suspense, useCallback, useEffect, useId, useMemo, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Location, type MapDocument } from '../../../../events/map-document';
import { usesTestSlot } from '../../../../events/map-states';
import type { PathsEdit } from '../../../../events/path-network';
import { copyTitleOf, MAP_TITLE_MAX, MapTitle } from '../../../../events/map-title';
import type { HistoryEntry } from '../../../../events/read-models';
import { Camera } from '../../components/map/camera';
import type { MapRendererHandle } from '../../components/map/map-renderer';
import type { MapPoint } from '../../components/map/types';
import { Button } from '../../components/ui/button';
import { api, toApiError } from '../../lib/api';
import { PresenceAvatars, PresenceProvider, usePresenceReport } from './presence';
import { EditorCanvas } from './editor-canvas';
import { EditorIcon, type EditorIconName } from './editor-icons';
import type { EditorSession } from './editor-session';
import { newElementId } from './ids';
import { GroupsPanel } from './panels/groups-panel';
import { HistoryPanel } from './panels/history-panel';
import { ImportExportPanel } from './panels/import-export-panel';
import { InsightsPanel } from './panels/insights-panel';
import { appliedNotice } from '../../lib/import/import-machine';
import { LayersPanel } from './panels/layers-panel';
import { LocationsPanel } from './panels/locations-panel';
import { PublishPanel } from './panels/publish-panel';
import type { PublishedPlace } from './panels/publish-changes';
import { PublishedGhost } from './published-ghost';
import { SettingsPanel } from './panels/settings-panel';
import { SharePanel } from './panels/share-panel';
import { OverwriteNotices } from './overwrite-notices';
import { SaveStatus } from './save-status';
import { TimelineView } from './timeline/timeline-view';
import { AccessBanner } from './access-banner';
import { SetAsideNotice } from './set-aside-notice';
import { historyFeedOf, isReadOnly, type EditorAccess, type HistoryFeed } from './use-editor-map';
import { commentsHost, type EditorComments } from './comments-slot';
import { ConnectorDialog } from './paths/connector-dialog';
import { PathLayer } from './paths/path-layer';
import { PathsPanel } from './paths/paths-panel';
import { RouteTest } from './paths/route-test';
import { NetworkCheck } from './paths/network-check';
import { DIRECTIONS_STATES } from '../../../../events/wayfinding/directions-allowed';
import type { Route } from '../../../../events/wayfinding/route-types';
import { usePathTool, type MapClickMode } from './paths/use-path-tool';
import { connectorEdit } from './tools/path-edits';
import type { PathSelection } from './tools/path-machine';
import { toolOf, toolOfKey, toolsMachine, type ToolName } from './tools/tools-machine';
import { isNarrowScreen } from './narrow-screen';
import { PlaceOnMapContext } from './place-on-map';
import { createActor } from 'xstate';
import './editor.css';

type Tab = 'locations' | 'paths' | 'floors' | 'groups' | 'style' | 'publish' | 'share' | 'data' | 'history' | 'comments' | 'insights';

const TABS: ReadonlyArray<{ id: Tab; label: string; icon: EditorIconName }> = [
  { id: 'locations', label: 'Locations', icon: 'pin' },
  { id: 'paths', label: 'Paths', icon: 'path' },
  { id: 'floors', label: 'Floors', icon: 'layers' },
  { id: 'groups', label: 'Groups', icon: 'tag' },
  { id: 'style', label: 'Settings', icon: 'sliders' },
  { id: 'publish', label: 'Publish', icon: 'rocket' },
  // The published map's page and embed snippet; inviting people is the bar's Share button.
  { id: 'share', label: 'Embed', icon: 'share' },
  { id: 'data', label: 'Data', icon: 'data' },
  { id: 'history', label: 'History', icon: 'clock' },
  { id: 'comments', label: 'Comments', icon: 'comment' },
  { id: 'insights', label: 'Insights', icon: 'chart' },
];

const NO_HISTORY: readonly HistoryEntry[] = [];
const noHistoryFeed: HistoryFeed = { get: () => NO_HISTORY, subscribe: () => () => {} };

export interface EditorProps {
  mapId: string;
  access: EditorAccess;
  title: string;
  state: number | null;
  session: EditorSession;
  /** The map's history entries (the owner's); by default the ones the session's map was opened with. */
  history?: HistoryFeed | null;
  signedIn: boolean;
  onTitleChange: (title: string) => void;
  /** Links: the map list, sign-up, another map (after making a copy). */
  mapsHref: string;
  registerHref: string;
  mapHref: (id: string) => string;
  /**
   * Draws the map as visitors see it, with the unsaved document. The app passes the public
   * viewer itself (loaded when first asked for; it may suspend), so the editor does not
   * depend on the viewer feature.
   */
  renderPreview: (map: PreviewMap) => ReactNode;
  /** Comments (the panel and the pins), for the map's people; none when exploring. */
  comments?: EditorComments | null;
  /** The bar's Share button (who can open the map), given by the app; none when exploring. */
  renderSharing?: (map: { mapId: string; title: string }) => ReactNode;
  /** The owner's name, for a viewer's "ask … to make you an editor". */
  ownerName?: string | null;
}

/** Publishing, billing and the embeds are the owner's (and admins'); members see the rest. */
const ownerOnlyTabs: ReadonlySet<Tab> = new Set(['publish', 'share']);
/** Visitors' numbers are for those who shape the map: owners and editors (events/map-access.ts `edit`), not viewers nor explorers. */
const editorOnlyTabs: ReadonlySet<Tab> = new Set(['insights']);

/** The map the preview shows: the public viewer's input, holding the tab's current document. */
export interface PreviewMap {
  id: string;
  title: string;
  state: number;
  data: MapDocument;
  revision: string;
  test: boolean;
}

/** A region id as a readable title: `shop-12_b` → `Shop 12 b`. */
export function titleFromElementId(id: string): string {
  const words = id.replace(/[_\-.:]+/g, ' ').replace(/([a-z])([A-Z0-9])/g, '$1 $2').trim();
  const title = words ? words[0]!.toUpperCase() + words.slice(1) : id;
  return title.slice(0, 200);
}

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || target.closest('input, textarea, select, [contenteditable="true"]') !== null);

function defaultLayerOf(document: MapDocument): string {
  return document.settings.defaultLayer ?? document.layers[0]!.id;
}

export function Editor({ mapId, access, title, state, session, history, signedIn, onTitleChange, mapsHref, registerHref, mapHref, renderPreview, comments = null, renderSharing, ownerName = null }: EditorProps) {
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const historyFeed = history === undefined ? historyFeedOf(session) : history;
  const historyEntries = useSyncExternalStore((historyFeed ?? noHistoryFeed).subscribe, (historyFeed ?? noHistoryFeed).get);
  const doc = snapshot.document;
  const camera = useMemo(() => new Camera(), []);
  useEffect(() => () => camera.dispose(), [camera]);
  const rendererRef = useRef<MapRendererHandle>(null);
  const [tab, setTab] = useState<Tab>('locations');
  const [panelOpen, setPanelOpen] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [layerChoice, setLayerChoice] = useState<string>(() => defaultLayerOf(doc));
  // The map's tool (select, place a location, draw paths, place a connector): a state machine.
  // Never stopped: it has no effects to end, and React may mount the page twice (strict mode).
  const tools = useMemo(() => createActor(toolsMachine).start(), []);
  const toolsSnapshot = useSyncExternalStore(
    useCallback((onChange: () => void) => {
      const subscription = tools.subscribe(onChange);
      return () => subscription.unsubscribe();
    }, [tools]),
    () => tools.getSnapshot(),
  );
  const tool: ToolName = toolOf(toolsSnapshot.value);
  const placing = tool === 'placeLocation';
  const setTool = useCallback((next: ToolName) => tools.send({ type: 'tool', tool: next }), [tools]);
  // Leaving placing goes back to selecting; turning it off while another tool is on changes nothing.
  const setPlacing = useCallback(
    (on: boolean) => {
      const current = toolOf(tools.getSnapshot().value);
      if (on) tools.send({ type: 'tool', tool: 'placeLocation' });
      else if (current === 'placeLocation') tools.send({ type: 'tool', tool: 'select' });
    },
    [tools],
  );
  // A location's entrance being chosen on the map (its id), and the canvas for the path tool's pointer.
  const [entranceFor, setEntranceFor] = useState<string | null>(null);
  const [canvasElement, setCanvasElement] = useState<HTMLDivElement | null>(null);
  // The route "test a route" found, drawn on its floors.
  const [testRoute, setTestRoute] = useState<Route | null>(null);
  // The points "check network" flags, marked on the map.
  const [flagged, setFlagged] = useState<ReadonlySet<string> | null>(null);
  const showOnMap = useCallback(
    (layer: string, at: MapPoint) => {
      setLayerChoice(layer);
      // After the floor has switched.
      requestAnimationFrame(() => camera.ensureVisible(at, 96));
    },
    [camera],
  );
  // A click asked for by a panel (a floor's calibration pin) instead of a new location.
  const pinRequest = useRef<((at: MapPoint) => void) | null>(null);
  const [pinHint, setPinHint] = useState<string | null>(null);
  // Leaving the placing tool (Esc, Select, a click) drops a panel's request for a click.
  useEffect(() => {
    if (placing) return;
    pinRequest.current = null;
    setPinHint(null);
  }, [placing]);
  const [preview, setPreview] = useState(false);
  const [timeline, setTimeline] = useState(false);
  const [regionOffer, setRegionOffer] = useState<{ element: string; at: MapPoint } | null>(null);
  // A moved location shown from the review of changes: where it stood when published, drawn
  // faintly while it stays selected (published-ghost.tsx).
  const [ghost, setGhost] = useState<({ id: string } & PublishedPlace) | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  const explore = access === 'explore';
  const readOnly = isReadOnly(access);
  const ids = useId();

  // The floor shown: the one chosen, or the default when it is gone (a collaborator removed it).
  const layerId = doc.layers.some((layer) => layer.id === layerChoice) ? layerChoice : defaultLayerOf(doc);
  const selected = selectedId ? doc.locations.find((location) => location.id === selectedId) ?? null : null;
  const editPaths = useCallback((edit: PathsEdit) => session.apply([edit]), [session]);
  const clickMode: MapClickMode = readOnly || preview || timeline ? null : entranceFor ? 'pickNode' : tool === 'drawPath' ? 'draw' : tool === 'placeConnector' && toolsSnapshot.matches({ placeConnector: 'aiming' }) ? 'aim' : null;
  const pathTool = usePathTool({
    camera,
    canvas: canvasElement,
    network: doc.paths,
    layerId,
    mode: clickMode,
    onEdit: editPaths,
    onAim: (at) => tools.send({ type: 'click', at: { x: Math.round(at.x * 10) / 10, y: Math.round(at.y * 10) / 10 } }),
    onPickNode: (node) => {
      const location = entranceFor ? session.document.locations.find((candidate) => candidate.id === entranceFor) : undefined;
      if (!location) return setEntranceFor(null);
      if (!node) return setToast('Click a path point (a small circle) to make it an entrance.');
      if (!location.entrances.includes(node.id)) session.apply([{ type: 'LocationUpdated', id: location.id, changes: { entrances: [...location.entrances, node.id] } }]);
      setEntranceFor(null);
      setPanelOpen(true);
      setToast(`The path point is now an entrance of “${location.title}”.`);
    },
  });
  const selectPath = (selection: PathSelection | null) => {
    pathTool.send({ type: 'select', selection });
    const node = selection?.kind === 'node' ? doc.paths.nodes.find((candidate) => candidate.id === selection.id) : null;
    const edge = selection?.kind === 'edge' ? doc.paths.edges.find((candidate) => candidate.id === selection.id) : null;
    const at = node ?? (edge ? doc.paths.nodes.find((candidate) => candidate.id === edge.from) : null);
    if (at) camera.ensureVisible(at, 96);
  };
  // The viewer shows directions on Professional maps and the product's own (the demo): elsewhere the panel says so.
  const directionsPublished = explore || (state !== null && DIRECTIONS_STATES.has(state));
  const showPaths = !preview && !timeline && (tool === 'drawPath' || tool === 'placeConnector' || entranceFor !== null || (tab === 'paths' && panelOpen) || testRoute !== null || flagged !== null || (tab === 'locations' && selected !== null && doc.paths.nodes.length > 0));
  useEffect(() => {
    if (selectedId && !selected) setSelectedId(null);
  }, [selectedId, selected]);
  useEffect(() => {
    if (ghost && selectedId !== ghost.id) setGhost(null);
  }, [ghost, selectedId]);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), 4_000);
    return () => clearTimeout(timer);
  }, [toast]);

  const openTab = (next: Tab) => {
    setTab(next);
    setPanelOpen(true);
  };

  const select = useCallback(
    (id: string | null, options: { focus?: boolean } = {}) => {
      setSelectedId(id);
      setRegionOffer(null);
      if (!id) return;
      setTab('locations');
      setPanelOpen(true);
      const location = session.document.locations.find((candidate) => candidate.id === id);
      if (location && location.layer !== layerId) setLayerChoice(location.layer);
      if (options.focus && location) {
        // After the floor has switched: centre the map on it.
        requestAnimationFrame(() => {
          const anchor = rendererRef.current?.anchorOf(id);
          if (anchor) camera.ensureVisible(anchor, 96);
        });
      }
    },
    [camera, layerId, session],
  );

  const addLocation = (fields: { position: MapPoint | null; element?: string; title?: string }) => {
    const location = Location.parse({
      id: newElementId('loc'),
      title: fields.title ?? 'New location',
      layer: layerId,
      position: fields.position,
      element: fields.element ?? null,
    });
    session.apply([{ type: 'LocationAdded', location }]);
    setPlacing(false);
    select(location.id);
    setToast(`Added “${location.title}”. Name it in the panel.`);
  };

  const place = (at: MapPoint) => {
    const pin = pinRequest.current;
    if (pin) {
      pinRequest.current = null;
      setPlacing(false);
      setPanelOpen(true);
      pin(at);
      return;
    }
    addLocation({ position: { x: Math.round(at.x * 10) / 10, y: Math.round(at.y * 10) / 10 } });
  };

  const pickPoint = (floorId: string, done: (at: MapPoint) => void) => {
    pinRequest.current = done;
    setPinHint('Click the drawing at the place whose latitude and longitude you know. Esc cancels.');
    setLayerChoice(floorId);
    setPreview(false);
    setTimeline(false);
    setRegionOffer(null);
    setPlacing(true);
    // On a narrow screen the panel covers the map: out of the way until the click.
    if (isNarrowScreen()) setPanelOpen(false);
  };

  // "Place on map" (the location form): the next click on the map puts the location there.
  const placeOnMap = (locationId: string) => {
    const location = session.document.locations.find((candidate) => candidate.id === locationId);
    if (!location) return;
    pinRequest.current = (at) => {
      session.apply([{ type: 'LocationMoved', id: locationId, position: { x: Math.round(at.x * 10) / 10, y: Math.round(at.y * 10) / 10 } }]);
      select(locationId);
      setToast(`“${location.title}” is on the map. Drag its marker to move it.`);
    };
    setPinHint(`Click the map where “${location.title}” is. Esc cancels.`);
    setLayerChoice(location.layer);
    setPreview(false);
    setTimeline(false);
    setRegionOffer(null);
    setPlacing(true);
    if (isNarrowScreen()) setPanelOpen(false);
  };

  const pickEntrance = (locationId: string) => {
    const location = session.document.locations.find((candidate) => candidate.id === locationId);
    if (!location) return;
    setLayerChoice(location.layer);
    setPreview(false);
    setTimeline(false);
    setRegionOffer(null);
    setTool('select');
    setEntranceFor(locationId);
    if (isNarrowScreen()) setPanelOpen(false);
  };

  const pickRegion = (element: string, at: MapPoint) => {
    // A click a panel asked for (a calibration pin, "Place on map") is a point, whatever it lands on.
    if (placing && pinRequest.current) place(at);
    else if (placing) addLocation({ position: null, element, title: titleFromElementId(element) });
    else setRegionOffer({ element, at });
  };

  // Moves of one marker in quick succession (Shift+arrow presses) are one undo step.
  const move = (id: string, to: MapPoint) => session.apply([{ type: 'LocationMoved', id, position: to }], { coalesce: `move:${id}` });

  const useCurrentView = () => {
    if (camera.width <= 0) return null;
    const centre = camera.toMap(camera.width / 2, camera.height / 2);
    return { x: Math.round(centre.x), y: Math.round(centre.y), zoom: Math.round(camera.zoom * 100) / 100 };
  };

  // Shortcuts: undo/redo (not while typing, where the field's own undo works), Esc, Delete.
  const keys = useRef({ placing, selectedId, session, regionOffer, tool, entranceFor, pathSelection: pathTool.selection, tab });
  keys.current = { placing, selectedId, session, regionOffer, tool, entranceFor, pathSelection: pathTool.selection, tab };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const { placing: armed, selectedId: current, session: s, regionOffer: offer } = keys.current;
      const mod = event.ctrlKey || event.metaKey;
      if (mod && !event.altKey && (event.key === 'z' || event.key === 'Z' || event.key === 'y')) {
        if (isTyping(event.target)) return;
        event.preventDefault();
        if (event.key === 'y' || event.shiftKey) s.redo();
        else s.undo();
        return;
      }
      const { tool: currentTool, entranceFor: choosingEntrance, pathSelection } = keys.current;
      const inDialog = event.target instanceof Element && event.target.closest('[role="dialog"]') !== null;
      if (event.key === 'Escape' && choosingEntrance) {
        setEntranceFor(null);
        setPanelOpen(true);
        return;
      }
      // The path tool's keys: Esc ends the path, Delete removes the selected point or link.
      // A point or link selected elsewhere than the Paths panel (a location chosen since) is not Delete's.
      const pathsInFocus = currentTool === 'drawPath' || (pathSelection !== null && keys.current.tab === 'paths');
      if (pathsInFocus && !isTyping(event.target) && !inDialog && !mod && (event.key === 'Escape' || ((event.key === 'Delete' || event.key === 'Backspace') && pathSelection))) {
        event.preventDefault();
        pathTool.send({ type: 'key', key: event.key });
        return;
      }
      if (event.key === 'Escape' && currentTool === 'placeConnector' && !inDialog) {
        tools.send({ type: 'key', key: 'Escape' });
        return;
      }
      if (event.key === 'Escape') {
        if (armed) setPlacing(false);
        else if (offer) setRegionOffer(null);
        else if (current && !isTyping(event.target) && !(event.target instanceof Element && event.target.closest('[role="dialog"]'))) setSelectedId(null);
        return;
      }
      const onMap = event.target instanceof Element && event.target.closest('.ed-canvas') !== null;
      if (!onMap || mod || event.altKey) return;
      if (event.key === 'Enter' && armed) {
        event.preventDefault();
        place(camera.toMap(camera.width / 2, camera.height / 2));
      } else if (toolOfKey(event.key) && !isTyping(event.target)) {
        tools.send({ type: 'key', key: event.key });
      } else if ((event.key === 'Delete' || event.key === 'Backspace') && current) {
        const location = s.document.locations.find((candidate) => candidate.id === current);
        if (!location) return;
        event.preventDefault();
        s.apply([{ type: 'LocationRemoved', id: current }]);
        setSelectedId(null);
        setToast(`Deleted “${location.title}”. Undo with ${navigator.platform.includes('Mac') ? '⌘' : 'Ctrl'}+Z.`);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

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

  const panel = (): ReactNode => {
    switch (tab) {
      case 'locations':
        return (
          <LocationsPanel
            document={doc}
            onEdit={session.apply}
            currentLayerId={layerId}
            selectedId={selected ? selected.id : null}
            onSelect={(id) => select(id, { focus: true })}
            onPickEntrance={readOnly ? undefined : pickEntrance}
            onStartAdding={() => {
              setPreview(false);
              setTimeline(false);
              setPlacing(true);
              setPanelOpen(false);
            }}
          />
        );
      case 'paths':
        return (
          <PathsPanel
            document={doc}
            onEdit={editPaths}
            layerId={layerId}
            tool={tool}
            onTool={(next) => {
              setPreview(false);
              setTimeline(false);
              setTool(next);
              // On a phone the sheet covers the map the tool works on.
              if (next !== 'select' && isNarrowScreen()) setPanelOpen(false);
            }}
            selection={pathTool.selection}
            onSelect={selectPath}
            directionsPublished={directionsPublished}
          >
            <NetworkCheck
              document={doc}
              onFlagged={setFlagged}
              onShowLocation={(id) => {
                const location = doc.locations.find((candidate) => candidate.id === id);
                if (!location) return;
                setSelectedId(id);
                setLayerChoice(location.layer);
                requestAnimationFrame(() => {
                  const anchor = rendererRef.current?.anchorOf(id);
                  if (anchor) camera.ensureVisible(anchor, 96);
                });
              }}
              onShowPoint={(id, layer) => {
                setLayerChoice(layer);
                // After the floor has switched (the tool drops a selection on another floor).
                requestAnimationFrame(() => selectPath({ kind: 'node', id }));
              }}
            />
            <RouteTest document={doc} onRoute={setTestRoute} onShow={showOnMap} />
          </PathsPanel>
        );
      case 'floors':
        return (
          <LayersPanel
            document={doc}
            onEdit={session.apply}
            currentLayerId={layerId}
            onSelectLayer={setLayerChoice}
            onPickPoint={pickPoint}
            {...(!explore && !readOnly
              ? {
                  regionImport: {
                    mapId,
                    onMade: (made: number, floorName: string) => {
                      setToast(`${made === 1 ? '1 location' : `${made.toLocaleString('en-US')} locations`} made from the regions of ${floorName}. Undo with ${navigator.platform.includes('Mac') ? '⌘' : 'Ctrl'}+Z.`);
                    },
                  },
                }
              : {})}
          />
        );
      case 'groups':
        return <GroupsPanel document={doc} onEdit={session.apply} />;
      case 'style':
        return <SettingsPanel document={doc} onEdit={session.apply} onUseCurrentView={useCurrentView} />;
      case 'insights':
        return <InsightsPanel mapId={mapId} published={state !== null && !usesTestSlot(state)} onToast={setToast} />;
      case 'publish':
        return (
          <PublishPanel
            mapId={mapId}
            title={title}
            state={state}
            onShowLocation={(id, published) => {
              const location = doc.locations.find((candidate) => candidate.id === id);
              if (!location) return;
              // The map draws no hidden location nor one not placed: its form says what it is.
              if (location.hidden || (!location.position && !location.element)) {
                select(id, { focus: true });
                return;
              }
              setSelectedId(id);
              setRegionOffer(null);
              setLayerChoice(location.layer);
              setGhost(published ? { id, ...published } : null);
              // On a phone the sheet covers the map it is shown on.
              if (isNarrowScreen()) setPanelOpen(false);
              // After the floor has switched: bring it into view.
              requestAnimationFrame(() => {
                const anchor = rendererRef.current?.anchorOf(id);
                if (anchor) camera.ensureVisible(anchor, 96);
              });
            }}
          />
        );
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
            picture={{ camera, layerId, onNotice: setToast }}
            onImported={(preview, name) => {
              // Recorded by the server: its events come over the live hub, and undo takes them back.
              if (preview.revision) session.serverStepDone(BigInt(preview.revision));
              setToast(`${appliedNotice(preview, name)} Undo with ${navigator.platform.includes('Mac') ? '⌘' : 'Ctrl'}+Z.`);
            }}
          />
        );
      case 'history':
        return (
          <HistoryPanel
            mapId={mapId}
            history={explore || !historyFeed ? null : historyEntries}
            readOnly={readOnly}
            onOpenTimeline={() => {
              setPreview(false);
              setPlacing(false);
              setTimeline(true);
              // On a phone the sheet would cover it.
              setPanelOpen(false);
            }}
            onRestored={setToast}
          />
        );
      case 'comments':
        return host ? comments!.panel(host) : null;
      default: {
        const unreachable: never = tab;
        return unreachable;
      }
    }
  };

  const host = comments && commentsHost({ document: doc, layerId, camera, rendererRef, selectedLocationId: selected?.id ?? null, setLayer: setLayerChoice, openPanel: () => openTab('comments'), setPanelOpen });
  const tabs = TABS.filter(
    (candidate) =>
      (comments || candidate.id !== 'comments') &&
      (access === 'owner' || explore || !ownerOnlyTabs.has(candidate.id)) &&
      (!editorOnlyTabs.has(candidate.id) || access === 'owner' || access === 'editor'),
  );
  const tabLabel = TABS.find((candidate) => candidate.id === tab)!.label;
  return (
    <PresenceProvider mapId={mapId} enabled={!explore}>
    <PresenceReport selection={selected ? selected.id : null} editing={selected && panelOpen && tab === 'locations' ? selected.id : null} />
    <div className="ed" data-panel-open={panelOpen ? 'true' : 'false'}>
      <title>{`${title} · Editor · Mapfold`}</title>
      <div className="ed-bar">
        <Link to={explore ? '/' : mapsHref} className="ed-icon-button ed-bar__back" aria-label={explore ? 'Home' : 'Your maps'}>
          <EditorIcon name="back" />
        </Link>
        <TitleField mapId={mapId} title={title} editable={!explore && !readOnly} onSaved={onTitleChange} onError={setToast} />
        <SaveStatus status={snapshot.status} unsaved={snapshot.unsaved} />
        <div className="ed-bar__actions">
          <PresenceAvatars camera={camera} document={doc} onLayerChange={setLayerChoice} />
          {!explore && access !== 'removed' && renderSharing ? renderSharing({ mapId, title }) : null}
          <div className="ed-bar__group" role="group" aria-label="History">
            <button type="button" className="ed-icon-button" aria-label="Undo" title="Undo (Ctrl+Z)" disabled={!snapshot.canUndo} onClick={session.undo}>
              <EditorIcon name="undo" />
            </button>
            <button type="button" className="ed-icon-button" aria-label="Redo" title="Redo (Ctrl+Shift+Z)" disabled={!snapshot.canRedo} onClick={session.redo}>
              <EditorIcon name="redo" />
            </button>
          </div>
          <button type="button" className="ed-button" aria-label={preview ? 'Back to editing' : 'Preview'} aria-pressed={preview} onClick={() => {
              setTimeline(false);
              setPreview((on) => !on);
            }}>
            <EditorIcon name={preview ? 'edit' : 'eye'} size={16} />
            <span>{preview ? 'Back to editing' : 'Preview'}</span>
          </button>
        </div>
      </div>

      {explore ? <ExploreBanner signedIn={signedIn} title={title} document={doc} registerHref={registerHref} mapHref={mapHref} /> : null}
      <AccessBanner access={access} ownerName={ownerName} mapsHref={mapsHref} />
      <SetAsideNotice mapId={mapId} session={session} active={!explore} />
      {snapshot.error ? (
        <div className="ed-alert" role="alert">
          <span>Not saved: {snapshot.error} Your last change was taken back.</span>
          <button type="button" className="ed-icon-button" aria-label="Dismiss" onClick={session.dismissError}>
            <EditorIcon name="close" size={16} />
          </button>
        </div>
      ) : null}

      <div className="ed-body">
        <div className="ed-rail" role="tablist" aria-label="Editor panels">
          {tabs.map((candidate) => (
            <button
              key={candidate.id}
              type="button"
              role="tab"
              id={`${ids}-tab-${candidate.id}`}
              aria-selected={tab === candidate.id}
              aria-controls={`${ids}-panel`}
              className="ed-rail__tab"
              onClick={() => (tab === candidate.id && panelOpen ? setPanelOpen(false) : openTab(candidate.id))}
            >
              <EditorIcon name={candidate.icon} size={20} />
              <span>{candidate.label}</span>
            </button>
          ))}
        </div>
        <section className="ed-panel" role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-tab-${tab}`}>
          <div className="ed-panel__head">
            <h2 className="ed-panel__title">{tabLabel}</h2>
            <button type="button" className="ed-icon-button ed-panel__close" aria-label="Close the panel" onClick={() => setPanelOpen(false)}>
              <EditorIcon name="close" size={16} />
            </button>
          </div>
          <div className="ed-panel__body">
            {/* Viewers comment too, and read the history (the panel keeps its own changes closed to them). */}
            <fieldset className="ed-readonly" disabled={readOnly && !((tab === 'comments' || tab === 'history') && access === 'viewer')}>
              <PlaceOnMapContext.Provider value={readOnly ? null : placeOnMap}>{panel()}</PlaceOnMapContext.Provider>
            </fieldset>
          </div>
        </section>
        <div className="ed-stage">
          {timeline && !explore ? (
            <TimelineView mapId={mapId} document={doc} onClose={() => setTimeline(false)} />
          ) : preview ? (
            <Suspense fallback={null}>
              <div className="ed-preview">
                <p className="ed-preview__label">Preview: this is how visitors see the map, with your latest changes.</p>
                {renderPreview({ id: mapId, title, state: state ?? 0, data: doc, revision: String(session.revision), test: false })}
              </div>
            </Suspense>
          ) : (
            <EditorCanvas
              document={doc}
              camera={camera}
              layerId={layerId}
              onLayerChange={setLayerChoice}
              selectedId={selected ? selected.id : null}
              onSelect={(id) => select(id)}
              placing={placing}
              onPlacingChange={setPlacing}
              tool={tool}
              onTool={(next) => {
                setTool(next);
                if (next === 'drawPath' || next === 'placeConnector') {
                  setTab('paths');
                  // On a phone the panel is a sheet over the map the tool works on: left closed.
                  if (!isNarrowScreen()) setPanelOpen(true);
                }
              }}
              canvasRef={setCanvasElement}
              toolHint={
                entranceFor ? (
                  <>Click a path point to make it an entrance of “{selected?.title ?? 'the location'}”. <kbd>Esc</kbd> cancels.</>
                ) : tool === 'drawPath' ? (
                  pathTool.drawing ? (
                    <>Click to add the next point. <kbd>Esc</kbd> ends the path, <kbd>Backspace</kbd> takes the last point back.</>
                  ) : (
                    <>Click to start a path, Shift-click a point or a link to branch from it, drag a point to move it.</>
                  )
                ) : tool === 'placeConnector' && toolsSnapshot.matches({ placeConnector: 'aiming' }) ? (
                  <>Click where the lift, stairs, escalator or ramp stands. <kbd>Esc</kbd> cancels.</>
                ) : null
              }
              paths={
                showPaths ? (
                  <PathLayer
                    camera={camera}
                    network={doc.paths}
                    layerId={layerId}
                    tool={pathTool.actor}
                    entrances={selected ? new Set(selected.entrances) : undefined}
                    flagged={flagged ?? undefined}
                    route={testRoute?.legs.filter((leg) => leg.layer === layerId).map((leg) => leg.points)}
                  />
                ) : null
              }
              placingHint={pinHint}
              onPlace={place}
              onPickRegion={pickRegion}
              onMove={move}
              rendererRef={rendererRef}
              overlay={
                <>
                  {host ? comments!.pins(host) : null}
                  {ghost && ghost.layer === layerId && !preview && !timeline ? (
                    <PublishedGhost camera={camera} at={ghost.position} labelSide={(selected?.position?.x ?? -Infinity) > ghost.position.x ? 'left' : 'right'} />
                  ) : null}
                </>
              }
              readOnly={readOnly}
            />
          )}
          {regionOffer && !preview && !timeline ? (
            <div className="ed-offer" role="dialog" aria-label="Unlinked region">
              <p>
                The region <strong>{regionOffer.element}</strong> is not a location yet.
              </p>
              <Button size="sm" onClick={() => addLocation({ position: null, element: regionOffer.element, title: titleFromElementId(regionOffer.element) })}>
                Make it a location
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setRegionOffer(null)}>
                Not now
              </Button>
            </div>
          ) : null}
          {toolsSnapshot.matches({ placeConnector: 'naming' }) && toolsSnapshot.context.connectorAt && !preview && !timeline ? (
            <ConnectorDialog
              layers={doc.layers}
              layerId={layerId}
              at={toolsSnapshot.context.connectorAt}
              onCreate={(draft) => {
                session.apply([connectorEdit((kind) => newElementId(kind), draft)]);
                tools.send({ type: 'done' });
                setToast(`Added ${draft.name.trim() || `the ${draft.kind}`} on ${draft.layers.length} floors. Link it to the paths on each floor.`);
              }}
              onCancel={() => tools.send({ type: 'cancel' })}
            />
          ) : null}
          <OverwriteNotices session={session} />
          <div className="ed-toast" role="status" aria-live="polite">
            {toast ? <span>{toast}</span> : null}
          </div>
        </div>
      </div>
    </div>
    </PresenceProvider>
  );
}

/** Tells the others in the map which location this tab has selected and which one's form is open. */
function PresenceReport(state: { selection: string | null; editing: string | null }) {
  usePresenceReport(state);
  return null;
}

/** The map's title, renamed in place (saveMap); Enter or leaving the field saves, Esc reverts. */
function TitleField({ mapId, title, editable, onSaved, onError }: { mapId: string; title: string; editable: boolean; onSaved: (title: string) => void; onError: (message: string) => void }) {
  const [draft, setDraft] = useState(title);
  const [busy, setBusy] = useState(false);
  const focused = useRef(false);
  useEffect(() => {
    if (!focused.current) setDraft(title);
  }, [title]);
  if (!editable) return <h1 className="ed-bar__title ed-bar__title--static">{title}</h1>;

  const commit = async () => {
    const parsed = MapTitle.safeParse(draft);
    if (!parsed.success) {
      onError(parsed.error.issues[0]?.message ?? 'Title is not valid.');
      setDraft(title);
      return;
    }
    if (parsed.data === title) return;
    setBusy(true);
    try {
      await api.callFunction('saveMap', { id: mapId, title: parsed.data });
      onSaved(parsed.data);
    } catch (error) {
      onError(toApiError(error).message);
      setDraft(title);
    } finally {
      setBusy(false);
    }
  };
  return (
    <h1 className="ed-bar__title">
      <input
        className="ed-bar__title-input"
        aria-label="Map title"
        value={draft}
        maxLength={MAP_TITLE_MAX}
        aria-busy={busy}
        onFocus={() => (focused.current = true)}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => {
          focused.current = false;
          void commit();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.currentTarget.blur();
          if (event.key === 'Escape') {
            setDraft(title);
            event.currentTarget.blur();
          }
        }}
      />
    </h1>
  );
}

/** Exploring someone else's map: what happens to the edits, and how to keep them. */
function ExploreBanner({ signedIn, title, document, registerHref, mapHref }: { signedIn: boolean; title: string; document: MapDocument; registerHref: string; mapHref: (id: string) => string }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const copy = async () => {
    setBusy(true);
    setError(null);
    try {
      const { result } = await api.callFunction('createMap', { title: copyTitleOf(title), mapData: document });
      navigate(mapHref(result));
    } catch (failure) {
      setError(toApiError(failure).message);
      setBusy(false);
    }
  };
  return (
    <div className="ed-explore" role="note">
      <p>
        <strong>You are exploring {title}.</strong> Try anything: your changes stay in this tab and are not saved.
      </p>
      {signedIn ? (
        <Button size="sm" loading={busy} onClick={() => void copy()}>
          Save a copy to my maps
        </Button>
      ) : (
        <Link className="btn btn--primary btn--sm" to={registerHref}>
          Sign up to save your own maps
        </Link>
      )}
      {error ? <p className="ed-explore__error">{error}</p> : null}
    </div>
  );
}
