/**
 * The editor's state and behaviour in plain TypeScript (tldraw's `Editor` habit): the selection,
 * the floor shown, the open panel, every mode (the map's tool, a panel's pin and choosing an
 * entrance as states of the tools machine; the preview, the timeline, the offer to link a
 * region), the keyboard shortcuts and the toast's timer. React only reads the
 * snapshot (`subscribe` / `getSnapshot`, through useEditorController) and calls the commands.
 *
 * No DOM here: the map is reached through `EditorView` (the camera and the renderer), keys come
 * in as `EditorKey` (already told whether the user is typing, in a dialog or on the map), so the
 * tests drive it with events and read its state without a browser.
 */
import { createActor, type Actor, type SnapshotFrom } from 'xstate';
import { Location, type MapDocument } from '../../../../../events/map-document';
import type { PathNode, PathsEdit } from '../../../../../events/path-network';
import type { Route } from '../../../../../events/wayfinding/route-types';
import type { MapPoint } from '../../../components/map/types';
import type { EditorSession } from '../editor-session';
import { newElementId } from '../ids';
import type { PublishedPlace } from '../panels/publish-changes';
import { connectorEdit, type ConnectorDraft } from '../tools/path-edits';
import { pathToolMachine, type PathSelection } from '../tools/path-machine';
import { toolOf, toolOfKey, toolsMachine, type ToolName } from '../tools/tools-machine';
import type { Tab } from './editor-tabs';

/** What the controller needs of the map on screen: the camera and the renderer, behind a seam. */
export interface EditorView {
  /** Brings a map point into view (with a margin). */
  ensureVisible(at: MapPoint): void;
  /** Where a location's marker or region is drawn, once its floor is shown. */
  anchorOf(locationId: string): MapPoint | null;
  /** The map point at the middle of the view. */
  centre(): MapPoint;
  /** A phone-sized screen, where a panel is a sheet over the map. */
  narrow(): boolean;
  /** Runs after the next paint (the floor just chosen is drawn by then). */
  afterPaint(run: () => void): void;
}

/** A key pressed anywhere in the page, as the controller needs it (see keyOf in use-editor-controller.ts). */
export interface EditorKey {
  key: string;
  /** Ctrl or ⌘ held. */
  mod: boolean;
  shift: boolean;
  alt: boolean;
  /** Typed into a field (its own undo and keys apply). */
  typing: boolean;
  /** Pressed inside a dialog. */
  inDialog: boolean;
  /** Pressed with the map focused. */
  onMap: boolean;
  preventDefault(): void;
}

export type ToolsSnapshot = SnapshotFrom<typeof toolsMachine>;

/** What the page draws from: replaced as a whole on every change. */
export interface EditorState {
  tab: Tab;
  panelOpen: boolean;
  selectedId: string | null;
  /** The floor chosen (layerIdOf falls back to the default when it is gone). */
  layerChoice: string;
  /** The tools machine's snapshot and the tool it is in. */
  tools: ToolsSnapshot;
  tool: ToolName;
  /** A location whose entrance is being chosen on the map (its id): the tools machine's `pickEntrance`. */
  entranceFor: string | null;
  /** What the placing hint says when a click is a panel's pin (a calibration point, "Place on map"): `placeLocation.pin`. */
  pinHint: string | null;
  preview: boolean;
  timeline: boolean;
  /** A region of the drawing no location stands for, clicked: offered as a new location. */
  regionOffer: { element: string; at: MapPoint } | null;
  /** A moved location shown from the review of changes: where it stood when published. */
  ghost: ({ id: string } & PublishedPlace) | null;
  toast: string | null;
  /** The route "test a route" found, drawn on its floors. */
  testRoute: Route | null;
  /** The points "check network" flags, marked on the map. */
  flagged: ReadonlySet<string> | null;
  /** The path tool's selection, and whether a path is being drawn. */
  pathSelection: PathSelection | null;
  drawing: boolean;
}

/** What a click on the map does: draw paths, say where a connector stands, choose an entrance point. */
export type MapClickMode = 'draw' | 'aim' | 'pickNode' | null;

export interface EditorControllerOptions {
  session: EditorSession;
  view?: EditorView;
  /** How long a toast stays. */
  toastMs?: number;
}

const TOAST_MS = 4_000;

const noView: EditorView = { ensureVisible: () => {}, anchorOf: () => null, centre: () => ({ x: 0, y: 0 }), narrow: () => false, afterPaint: (run) => run() };

export function defaultLayerOf(document: MapDocument): string {
  return document.settings.defaultLayer ?? document.layers[0]!.id;
}

/** The floor shown: the one chosen, or the default when it is gone (a collaborator removed it). */
export function layerIdOf(state: EditorState, document: MapDocument): string {
  return document.layers.some((layer) => layer.id === state.layerChoice) ? state.layerChoice : defaultLayerOf(document);
}

/** What a click on the map does now (the path tool's pointer adapter reads it). */
export function clickModeOf(state: EditorState, readOnly: boolean): MapClickMode {
  if (readOnly || state.preview || state.timeline) return null;
  if (state.entranceFor) return 'pickNode';
  if (state.tool === 'drawPath') return 'draw';
  return state.tool === 'placeConnector' && state.tools.matches({ placeConnector: 'aiming' }) ? 'aim' : null;
}

/** Whether the path network is drawn over the map. */
export function pathsShownOf(state: EditorState, document: MapDocument): boolean {
  if (state.preview || state.timeline) return false;
  const selected = state.selectedId !== null && document.locations.some((location) => location.id === state.selectedId);
  return state.tool === 'drawPath' || state.tool === 'placeConnector' || state.entranceFor !== null || (state.tab === 'paths' && state.panelOpen) || state.testRoute !== null || state.flagged !== null || (state.tab === 'locations' && selected && document.paths.nodes.length > 0);
}

/** A region id as a readable title: `shop-12_b` → `Shop 12 b`. */
export function titleFromElementId(id: string): string {
  const words = id.replace(/[_\-.:]+/g, ' ').replace(/([a-z])([A-Z0-9])/g, '$1 $2').trim();
  const title = words ? words[0]!.toUpperCase() + words.slice(1) : id;
  return title.slice(0, 200);
}

/** "Undo with Ctrl+Z" in the platform's words. */
export const undoHint = (): string => `Undo with ${typeof navigator !== 'undefined' && navigator.platform.includes('Mac') ? '⌘' : 'Ctrl'}+Z.`;

/** What the page reads of the tools machine: its snapshot, the tool, and the modes' details. */
const toolsState = (tools: ToolsSnapshot) => ({ tools, tool: toolOf(tools.value), entranceFor: tools.context.entranceFor, pinHint: tools.context.pinHint });

const tenth = (at: MapPoint): MapPoint => ({ x: Math.round(at.x * 10) / 10, y: Math.round(at.y * 10) / 10 });

export class EditorController {
  readonly session: EditorSession;
  /** The map's tool (select, place a location, draw paths, place a connector). Never stopped: no effects to end. */
  readonly tools = createActor(toolsMachine).start();
  /** The path tool's machine, on the document's network and the floor shown. */
  readonly pathTool: Actor<typeof pathToolMachine>;
  private view: EditorView;
  private state: EditorState;
  private readonly listeners = new Set<() => void>();
  /** A click asked for by a panel (a floor's calibration pin, "Place on map") instead of a new location. */
  private pinRequest: ((at: MapPoint) => void) | null = null;
  private toastTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly toastMs: number;
  private stopSession: (() => void) | null = null;
  private synced: { network: MapDocument['paths']; layer: string };

  constructor(options: EditorControllerOptions) {
    this.session = options.session;
    this.view = options.view ?? noView;
    this.toastMs = options.toastMs ?? TOAST_MS;
    const document = this.session.document;
    this.state = {
      tab: 'locations',
      panelOpen: false,
      selectedId: null,
      layerChoice: defaultLayerOf(document),
      ...toolsState(this.tools.getSnapshot()),
      preview: false,
      timeline: false,
      regionOffer: null,
      ghost: null,
      toast: null,
      testRoute: null,
      flagged: null,
      pathSelection: null,
      drawing: false,
    };
    this.synced = { network: document.paths, layer: defaultLayerOf(document) };
    this.pathTool = createActor(pathToolMachine, { input: { network: document.paths, layer: this.synced.layer, ids: (kind) => newElementId(kind) } }).start();
    this.pathTool.on('edit', ({ edit }) => this.editPaths(edit));
    this.tools.subscribe((snapshot) => this.update(toolsState(snapshot)));
    this.pathTool.subscribe((snapshot) => {
      const selection = snapshot.context.selection;
      const drawing = snapshot.context.trail.length > 0;
      // The pointer's every move changes the rubber band: only the path layer follows that.
      if (selection !== this.state.pathSelection || drawing !== this.state.drawing) this.update({ pathSelection: selection, drawing });
    });
  }

  // ---- reading ------------------------------------------------------------------------------

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): EditorState => this.state;

  /** The floor shown now. */
  get layerId(): string {
    return layerIdOf(this.state, this.session.document);
  }

  /** The map on screen (the hook gives the camera and the renderer). */
  attachView(view: EditorView): void {
    this.view = view;
  }

  /** Follows the document (a collaborator's edits, undo): the selection and the path tool stay on what exists. */
  start(): () => void {
    this.stopSession?.();
    const unsubscribe = this.session.subscribe(() => this.update({}));
    this.stopSession = unsubscribe;
    return () => {
      unsubscribe();
      if (this.stopSession === unsubscribe) this.stopSession = null;
      if (this.toastTimer) clearTimeout(this.toastTimer);
      this.toastTimer = null;
    };
  }

  private update(patch: Partial<EditorState>): void {
    const before = this.state;
    const next = { ...before, ...patch };
    const document = this.session.document;
    // What is gone or no longer meant drops out: a removed location's selection, the ghost of
    // another location, a panel's pin once placing is left.
    if (next.selectedId && !document.locations.some((location) => location.id === next.selectedId)) next.selectedId = null;
    if (next.ghost && next.selectedId !== next.ghost.id) next.ghost = null;
    if (!next.tools.matches({ placeLocation: 'pin' })) this.pinRequest = null;
    if (next.toast !== before.toast) this.armToast(next.toast);
    const changed = (Object.keys(next) as Array<keyof EditorState>).some((key) => next[key] !== before[key]);
    if (changed) this.state = next;
    this.syncPaths();
    if (changed) for (const listener of [...this.listeners]) listener();
  }

  private syncPaths(): void {
    const network = this.session.document.paths;
    const layer = this.layerId;
    if (network === this.synced.network && layer === this.synced.layer) return;
    this.synced = { network, layer };
    this.pathTool.send({ type: 'sync', network, layer });
  }

  private armToast(toast: string | null): void {
    if (this.toastTimer) clearTimeout(this.toastTimer);
    this.toastTimer = toast ? setTimeout(() => this.update({ toast: null }), this.toastMs) : null;
  }

  private find(id: string): Location | undefined {
    return this.session.document.locations.find((candidate) => candidate.id === id);
  }

  /** After the floor has switched: bring a location into view. */
  private revealLater(id: string): void {
    this.view.afterPaint(() => {
      const anchor = this.view.anchorOf(id);
      if (anchor) this.view.ensureVisible(anchor);
    });
  }

  // ---- panels, floors, preview --------------------------------------------------------------

  readonly toast = (message: string | null): void => this.update({ toast: message });
  readonly setLayer = (id: string): void => this.update({ layerChoice: id });
  readonly setPanelOpen = (open: boolean): void => this.update({ panelOpen: open });
  readonly openTab = (tab: Tab): void => this.update({ tab, panelOpen: true });
  /** The rail's tab: opens its panel, or closes it when it is the one open. */
  readonly pressTab = (tab: Tab): void => (this.state.tab === tab && this.state.panelOpen ? this.setPanelOpen(false) : this.openTab(tab));
  readonly togglePreview = (): void => this.update({ timeline: false, preview: !this.state.preview });
  readonly openTimeline = (): void => {
    this.update({ preview: false });
    this.setPlacing(false);
    // On a phone the sheet would cover it.
    this.update({ timeline: true, panelOpen: false });
  };
  readonly closeTimeline = (): void => this.update({ timeline: false });
  readonly setTestRoute = (route: Route | null): void => this.update({ testRoute: route });
  readonly setFlagged = (flagged: ReadonlySet<string> | null): void => this.update({ flagged });

  /** A place a panel points at (a route's step): its floor, then the point in view. */
  readonly showOnMap = (layer: string, at: MapPoint): void => {
    this.setLayer(layer);
    this.view.afterPaint(() => this.view.ensureVisible(at));
  };

  // ---- selection ----------------------------------------------------------------------------

  /** Selects a location (its form opens, its floor is shown); `focus` brings it into view. */
  readonly select = (id: string | null, options: { focus?: boolean } = {}): void => {
    this.update({ selectedId: id, regionOffer: null });
    if (!id) return;
    const location = this.find(id);
    this.update({ tab: 'locations', panelOpen: true, ...(location && location.layer !== this.layerId ? { layerChoice: location.layer } : {}) });
    if (options.focus && location) this.revealLater(id);
  };

  /** A location flagged by the network check: selected and shown, the Paths panel kept. */
  readonly showCheckedLocation = (id: string): void => {
    const location = this.find(id);
    if (!location) return;
    this.update({ selectedId: id, layerChoice: location.layer });
    this.revealLater(id);
  };

  /** A location from the review of changes, with where it stood when published (when it moved). */
  readonly showPublishedChange = (id: string, published: PublishedPlace | null): void => {
    const location = this.find(id);
    if (!location) return;
    // The map draws no hidden location nor one not placed: its form says what it is.
    if (location.hidden || (!location.position && !location.element)) return this.select(id, { focus: true });
    this.update({ selectedId: id, regionOffer: null, layerChoice: location.layer, ghost: published ? { id, ...published } : null });
    // On a phone the sheet covers the map it is shown on.
    if (this.view.narrow()) this.setPanelOpen(false);
    this.revealLater(id);
  };

  // ---- tools --------------------------------------------------------------------------------

  readonly setTool = (tool: ToolName): void => {
    this.tools.send({ type: 'tool', tool });
  };

  /** Leaving placing goes back to selecting; turning it off while another tool is on changes nothing. */
  readonly setPlacing = (on: boolean): void => {
    if (on) this.tools.send({ type: 'tool', tool: 'placeLocation' });
    else if (this.state.tool === 'placeLocation') this.tools.send({ type: 'tool', tool: 'select' });
  };

  /** The map's tool switch: a path tool opens the Paths panel (left closed on a phone, where it is a sheet over the map). */
  readonly chooseTool = (tool: ToolName): void => {
    this.setTool(tool);
    if (tool === 'drawPath' || tool === 'placeConnector') this.update({ tab: 'paths', ...(this.view.narrow() ? {} : { panelOpen: true }) });
  };

  /** The Paths panel's tool buttons. */
  readonly choosePathTool = (tool: ToolName): void => {
    this.update({ preview: false, timeline: false });
    this.setTool(tool);
    // On a phone the sheet covers the map the tool works on.
    if (tool !== 'select' && this.view.narrow()) this.setPanelOpen(false);
  };

  /** "Add location" in the Locations panel: the next click on the map places it. */
  readonly startAdding = (): void => {
    this.update({ preview: false, timeline: false });
    this.setPlacing(true);
    this.setPanelOpen(false);
  };

  readonly selectPath = (selection: PathSelection | null): void => {
    this.pathTool.send({ type: 'select', selection });
    const paths = this.session.document.paths;
    const node = selection?.kind === 'node' ? paths.nodes.find((candidate) => candidate.id === selection.id) : null;
    const edge = selection?.kind === 'edge' ? paths.edges.find((candidate) => candidate.id === selection.id) : null;
    const at = node ?? (edge ? paths.nodes.find((candidate) => candidate.id === edge.from) : null);
    if (at) this.view.ensureVisible(at);
  };

  /** A point flagged by the network check: its floor, then the point selected (the tool drops a selection on another floor). */
  readonly showPathPoint = (id: string, layer: string): void => {
    this.setLayer(layer);
    this.view.afterPaint(() => this.selectPath({ kind: 'node', id }));
  };

  readonly editPaths = (edit: PathsEdit): void => this.session.apply([edit]);

  /** The click saying where a connector stands. */
  readonly aim = (at: MapPoint): void => {
    this.tools.send({ type: 'click', at: tenth(at) });
  };

  readonly createConnector = (draft: ConnectorDraft): void => {
    this.session.apply([connectorEdit((kind) => newElementId(kind), draft)]);
    this.tools.send({ type: 'done' });
    this.toast(`Added ${draft.name.trim() || `the ${draft.kind}`} on ${draft.layers.length} floors. Link it to the paths on each floor.`);
  };

  readonly cancelConnector = (): void => {
    this.tools.send({ type: 'cancel' });
  };

  // ---- placing ------------------------------------------------------------------------------

  readonly addLocation = (fields: { position: MapPoint | null; element?: string; title?: string }): void => {
    const location = Location.parse({ id: newElementId('loc'), title: fields.title ?? 'New location', layer: this.layerId, position: fields.position, element: fields.element ?? null });
    this.session.apply([{ type: 'LocationAdded', location }]);
    this.setPlacing(false);
    this.select(location.id);
    this.toast(`Added “${location.title}”. Name it in the panel.`);
  };

  /** A click on the map while placing: a panel's pin, or a new location there. */
  readonly place = (at: MapPoint): void => {
    const pin = this.pinRequest;
    if (pin) {
      this.pinRequest = null;
      this.setPlacing(false);
      this.setPanelOpen(true);
      pin(at);
      return;
    }
    this.addLocation({ position: tenth(at) });
  };

  /** Arms the next click on a floor for a panel (a calibration point). */
  readonly pickPoint = (floorId: string, done: (at: MapPoint) => void): void => {
    this.armPin(floorId, 'Click the drawing at the place whose latitude and longitude you know. Esc cancels.', done);
  };

  /** "Place on map" (the location form): the next click on the map puts the location there. */
  readonly placeOnMap = (locationId: string): void => {
    const location = this.find(locationId);
    if (!location) return;
    this.armPin(location.layer, `Click the map where “${location.title}” is. Esc cancels.`, (at) => {
      this.session.apply([{ type: 'LocationMoved', id: locationId, position: tenth(at) }]);
      this.select(locationId);
      this.toast(`“${location.title}” is on the map. Drag its marker to move it.`);
    });
  };

  private armPin(layer: string, hint: string, done: (at: MapPoint) => void): void {
    this.update({ layerChoice: layer, preview: false, timeline: false, regionOffer: null });
    this.tools.send({ type: 'pin', hint });
    this.pinRequest = done;
    // On a narrow screen the panel covers the map: out of the way until the click.
    if (this.view.narrow()) this.setPanelOpen(false);
  }

  /** The next click on a path point makes it an entrance of the location. */
  readonly pickEntrance = (locationId: string): void => {
    const location = this.find(locationId);
    if (!location) return;
    this.update({ layerChoice: location.layer, preview: false, timeline: false, regionOffer: null });
    this.tools.send({ type: 'pickEntrance', location: locationId });
    if (this.view.narrow()) this.setPanelOpen(false);
  };

  /** The click choosing an entrance: a path point, or nothing there. */
  readonly pickNode = (node: PathNode | null): void => {
    const location = this.state.entranceFor ? this.find(this.state.entranceFor) : undefined;
    if (!location) return void this.tools.send({ type: 'cancel' });
    if (!node) return this.toast('Click a path point (a small circle) to make it an entrance.');
    if (!location.entrances.includes(node.id)) this.session.apply([{ type: 'LocationUpdated', id: location.id, changes: { entrances: [...location.entrances, node.id] } }]);
    this.tools.send({ type: 'done' });
    this.setPanelOpen(true);
    this.toast(`The path point is now an entrance of “${location.title}”.`);
  };

  /** A region of the drawing no location stands for, clicked. */
  readonly pickRegion = (element: string, at: MapPoint): void => {
    const placing = this.state.tool === 'placeLocation';
    // A click a panel asked for (a calibration pin, "Place on map") is a point, whatever it lands on.
    if (placing && this.pinRequest) this.place(at);
    else if (placing) this.addLocation({ position: null, element, title: titleFromElementId(element) });
    else this.update({ regionOffer: { element, at } });
  };

  readonly acceptRegionOffer = (): void => {
    const offer = this.state.regionOffer;
    if (offer) this.addLocation({ position: null, element: offer.element, title: titleFromElementId(offer.element) });
  };

  readonly dismissRegionOffer = (): void => this.update({ regionOffer: null });

  /** Moves of one marker in quick succession (Shift+arrow presses) are one undo step. */
  readonly move = (id: string, to: MapPoint): void => this.session.apply([{ type: 'LocationMoved', id, position: to }], { coalesce: `move:${id}` });

  // ---- keys ---------------------------------------------------------------------------------

  /** Shortcuts: undo/redo (not while typing, where the field's own undo works), Esc, Delete, the tools' letters, Enter to place. */
  readonly handleKey = (event: EditorKey): void => {
    const { key, mod } = event;
    const state = this.state;
    if (mod && !event.alt && (key === 'z' || key === 'Z' || key === 'y')) {
      if (event.typing) return;
      event.preventDefault();
      if (key === 'y' || event.shift) this.session.redo();
      else this.session.undo();
      return;
    }
    if (key === 'Escape' && state.entranceFor) {
      this.tools.send({ type: 'cancel' });
      return this.setPanelOpen(true);
    }
    // The path tool's keys: Esc ends the path, Delete removes the selected point or link.
    // A point or link selected elsewhere than the Paths panel (a location chosen since) is not Delete's.
    const pathSelection = this.pathTool.getSnapshot().context.selection;
    const pathsInFocus = state.tool === 'drawPath' || (pathSelection !== null && state.tab === 'paths');
    if (pathsInFocus && !event.typing && !event.inDialog && !mod && (key === 'Escape' || ((key === 'Delete' || key === 'Backspace') && pathSelection))) {
      event.preventDefault();
      this.pathTool.send({ type: 'key', key });
      return;
    }
    if (key === 'Escape' && state.tool === 'placeConnector' && !event.inDialog) {
      this.tools.send({ type: 'key', key: 'Escape' });
      return;
    }
    if (key === 'Escape') {
      if (state.tool === 'placeLocation') this.setPlacing(false);
      else if (state.regionOffer) this.dismissRegionOffer();
      else if (state.selectedId && !event.typing && !event.inDialog) this.update({ selectedId: null });
      return;
    }
    if (!event.onMap || mod || event.alt) return;
    if (key === 'Enter' && state.tool === 'placeLocation') {
      event.preventDefault();
      this.place(this.view.centre());
    } else if (toolOfKey(key) && !event.typing) {
      this.tools.send({ type: 'key', key });
    } else if ((key === 'Delete' || key === 'Backspace') && state.selectedId) {
      const location = this.find(state.selectedId);
      if (!location) return;
      event.preventDefault();
      this.session.apply([{ type: 'LocationRemoved', id: location.id }]);
      this.update({ selectedId: null });
      this.toast(`Deleted “${location.title}”. ${undoHint()}`);
    }
  };
}
