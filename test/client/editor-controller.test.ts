/**
 * The editor controller without a browser (issue 29 item 6): given a session on a document,
 * when commands, keys and map clicks come in, then the selection, the floor, the panel, the
 * tool (a state of the tools machine) and the document are what the editor shows. The map on
 * screen is a fake view that records what it was asked to bring into view.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { EditorSession } from '../../client/src/features/editor/editor-session';
import { clickModeOf, EditorController, layerIdOf, pathsShownOf, type EditorKey, type EditorView } from '../../client/src/features/editor/controller/editor-controller';
import { visibleTabs } from '../../client/src/features/editor/controller/editor-tabs';

const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 10, y: 20 } });
const gym = Location.parse({ id: 'gym', title: 'Gym', layer: 'upper', position: { x: 300, y: 40 } });

function mapDocument(): MapDocument {
  const base = emptyMapDocument();
  return { ...base, layers: [...base.layers, { id: 'upper', name: 'Upper floor', file: null }], locations: [cafe, gym] };
}

/** A map on screen that records what it was asked; `paint()` runs what waits for the next frame. */
function fakeView(options: { narrow?: boolean } = {}) {
  const shown: Array<{ x: number; y: number }> = [];
  const waiting: Array<() => void> = [];
  const view: EditorView = {
    ensureVisible: (at) => void shown.push({ x: at.x, y: at.y }),
    anchorOf: (id) => (id === 'gym' ? { x: 300, y: 40 } : id === 'cafe' ? { x: 10, y: 20 } : null),
    centre: () => ({ x: 123.456, y: 78.9 }),
    narrow: () => options.narrow ?? false,
    afterPaint: (run) => void waiting.push(run),
  };
  return { view, shown, paint: () => waiting.splice(0).forEach((run) => run()) };
}

function editor(options: { narrow?: boolean; document?: MapDocument } = {}) {
  const session = new EditorSession({ initial: { document: options.document ?? mapDocument(), revision: 0n }, save: null });
  const screen = fakeView(options);
  const controller = new EditorController({ session, view: screen.view });
  const stop = controller.start();
  const pressed: string[] = [];
  /** A key, pressed on the map unless told otherwise. */
  const key = (name: string, where: Partial<Omit<EditorKey, 'key' | 'preventDefault'>> = {}) => {
    const event: EditorKey = { key: name, mod: false, shift: false, alt: false, typing: false, inDialog: false, onMap: true, ...where, preventDefault: () => void pressed.push(name) };
    controller.handleKey(event);
  };
  return { session, controller, screen, key, pressed, stop, state: () => controller.getSnapshot(), doc: () => session.document };
}

describe('EditorController', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('opens on the default floor with nothing selected, the select tool on and the panel closed', () => {
    const { state, doc } = editor();
    expect(state()).toMatchObject({ tab: 'locations', panelOpen: false, selectedId: null, tool: 'select', preview: false, timeline: false, toast: null });
    expect(layerIdOf(state(), doc())).toBe('ground');
  });

  it('places a location with a click: added where clicked, selected, its form open, the tool back to select; the toast goes after 4 s', () => {
    const { controller, state, doc } = editor();
    controller.startAdding();
    expect(state()).toMatchObject({ tool: 'placeLocation', panelOpen: false });
    controller.place({ x: 50.04, y: 60.06 });
    const added = doc().locations.at(-1)!;
    expect(added).toMatchObject({ title: 'New location', layer: 'ground', position: { x: 50, y: 60.1 }, element: null });
    expect(state()).toMatchObject({ tool: 'select', selectedId: added.id, tab: 'locations', panelOpen: true, toast: 'Added “New location”. Name it in the panel.' });
    vi.advanceTimersByTime(3_999);
    expect(state().toast).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(state().toast).toBeNull();
  });

  it('switches tools by key on the map (A, P, C, V) and not while typing or off the map; Esc leaves placing', () => {
    const { key, state } = editor();
    key('a', { typing: true });
    key('a', { onMap: false });
    expect(state().tool).toBe('select');
    key('a');
    expect(state().tool).toBe('placeLocation');
    key('Escape');
    expect(state().tool).toBe('select');
    key('p');
    expect(state().tool).toBe('drawPath');
    key('v');
    expect(state().tool).toBe('select');
  });

  it('places at the middle of the view with Enter while placing', () => {
    const { key, state, doc, pressed } = editor();
    key('a');
    key('Enter');
    expect(pressed).toContain('Enter');
    expect(doc().locations.at(-1)!.position).toEqual({ x: 123.5, y: 78.9 });
    expect(state().tool).toBe('select');
  });

  it('deletes the selected location with Delete on the map, says how to undo, and Ctrl+Z brings it back (not while typing)', () => {
    const { controller, key, state, doc } = editor();
    controller.select('cafe');
    key('Delete');
    expect(doc().locations.map((location) => location.id)).toEqual(['gym']);
    expect(state().selectedId).toBeNull();
    expect(state().toast).toMatch(/^Deleted “Cafe”\. Undo with (Ctrl|⌘)\+Z\.$/);
    key('z', { mod: true, typing: true });
    expect(doc().locations).toHaveLength(1);
    key('z', { mod: true, onMap: false });
    expect(doc().locations.map((location) => location.id).sort()).toEqual(['cafe', 'gym']);
    key('z', { mod: true, shift: true });
    expect(doc().locations).toHaveLength(1);
  });

  it('selecting a location on another floor shows that floor, and brings it into view after the floor is drawn', () => {
    const { controller, state, doc, screen } = editor();
    controller.select('gym', { focus: true });
    expect(state()).toMatchObject({ selectedId: 'gym', tab: 'locations', panelOpen: true });
    expect(layerIdOf(state(), doc())).toBe('upper');
    expect(screen.shown).toEqual([]);
    screen.paint();
    expect(screen.shown).toEqual([{ x: 300, y: 40 }]);
  });

  it('drops the selection when the location goes (a collaborator, an undo) and Esc clears it', () => {
    const { controller, session, state, key } = editor();
    controller.addLocation({ position: { x: 1, y: 2 } });
    expect(state().selectedId).not.toBeNull();
    session.undo();
    expect(state().selectedId).toBeNull();
    controller.select('cafe');
    key('Escape', { onMap: false });
    expect(state().selectedId).toBeNull();
  });

  it('falls back to the default floor when the floor shown is removed', () => {
    const { controller, session, state, doc } = editor();
    controller.setLayer('upper');
    session.apply([{ type: 'LayerRemoved', id: 'upper', removedLocations: [] }]);
    expect(layerIdOf(state(), doc())).toBe('ground');
  });

  it('"Place on map" arms the next click: a region click puts the location there; Esc drops the pin and its hint', () => {
    const { controller, state, doc, key } = editor({ narrow: true });
    controller.openTab('locations');
    controller.placeOnMap('gym');
    expect(state()).toMatchObject({ tool: 'placeLocation', pinHint: 'Click the map where “Gym” is. Esc cancels.', panelOpen: false });
    expect(state().tools.matches({ placeLocation: 'pin' })).toBe(true);
    expect(layerIdOf(state(), doc())).toBe('upper');
    controller.pickRegion('shop-12', { x: 7.77, y: 8.88 });
    expect(doc().locations.find((location) => location.id === 'gym')!.position).toEqual({ x: 7.8, y: 8.9 });
    expect(doc().locations).toHaveLength(2);
    expect(state()).toMatchObject({ tool: 'select', pinHint: null, selectedId: 'gym', panelOpen: true, toast: '“Gym” is on the map. Drag its marker to move it.' });

    controller.placeOnMap('cafe');
    key('Escape');
    expect(state()).toMatchObject({ tool: 'select', pinHint: null });
    controller.startAdding();
    controller.place({ x: 1, y: 1 });
    // The pin was dropped: the click adds a location instead of moving the cafe.
    expect(doc().locations.find((location) => location.id === 'cafe')!.position).toEqual({ x: 10, y: 20 });
    expect(doc().locations).toHaveLength(3);
  });

  it('offers an unlinked region as a location, titled from its id; Esc says not now', () => {
    const { controller, state, doc, key } = editor();
    controller.pickRegion('shop-12_b', { x: 5, y: 5 });
    expect(state().regionOffer).toEqual({ element: 'shop-12_b', at: { x: 5, y: 5 } });
    key('Escape');
    expect(state().regionOffer).toBeNull();
    controller.pickRegion('shop-12_b', { x: 5, y: 5 });
    controller.acceptRegionOffer();
    expect(doc().locations.at(-1)).toMatchObject({ title: 'Shop 12 b', element: 'shop-12_b', position: null });
    expect(state()).toMatchObject({ regionOffer: null, selectedId: doc().locations.at(-1)!.id });
  });

  it('places a connector in two steps, from the path tool and back to it; Esc while aiming goes back too', () => {
    const { controller, state, doc, key } = editor();
    controller.chooseTool('drawPath');
    expect(state()).toMatchObject({ tool: 'drawPath', tab: 'paths', panelOpen: true });
    key('c');
    expect(state().tool).toBe('placeConnector');
    expect(clickModeOf(state(), false)).toBe('aim');
    controller.aim({ x: 10.04, y: 20.06 });
    expect(state().tools.matches({ placeConnector: 'naming' })).toBe(true);
    expect(state().tools.context.connectorAt).toEqual({ x: 10, y: 20.1 });
    controller.createConnector({ kind: 'lift', name: 'Lift A', layers: ['ground', 'upper'], at: { x: 10, y: 20.1 } });
    expect(doc().paths.connectors).toHaveLength(1);
    expect(state().tool).toBe('drawPath');
    expect(state().toast).toBe('Added Lift A on 2 floors. Link it to the paths on each floor.');
    key('c');
    key('Escape');
    expect(state().tool).toBe('drawPath');
  });

  it('draws paths with the path tool: its edits reach the document, Esc ends the path and keeps the tool', () => {
    const { controller, state, doc, key } = editor();
    key('p');
    expect(clickModeOf(state(), false)).toBe('draw');
    expect(clickModeOf(state(), true)).toBeNull();
    const click = (x: number, y: number) => {
      controller.pathTool.send({ type: 'down', at: { x, y }, scale: 1 });
      controller.pathTool.send({ type: 'up', at: { x, y }, scale: 1 });
    };
    click(0, 0);
    click(100, 0);
    expect(doc().paths.nodes).toHaveLength(2);
    expect(doc().paths.edges).toHaveLength(1);
    expect(state().drawing).toBe(true);
    expect(pathsShownOf(state(), doc())).toBe(true);
    key('Escape');
    expect(state()).toMatchObject({ drawing: false, tool: 'drawPath' });
  });

  it('chooses an entrance: a click off the points says what to click, a point becomes an entrance and the form reopens', () => {
    const document = mapDocument();
    const withPoint: MapDocument = { ...document, paths: { ...document.paths, nodes: [{ id: 'n1', layer: 'ground', x: 12, y: 22 }] } };
    const { controller, state, doc, key } = editor({ document: withPoint });
    controller.pickEntrance('cafe');
    expect(state()).toMatchObject({ entranceFor: 'cafe', tool: 'select' });
    expect(state().tools.matches('pickEntrance')).toBe(true);
    expect(clickModeOf(state(), false)).toBe('pickNode');
    controller.pickNode(null);
    expect(state().toast).toBe('Click a path point (a small circle) to make it an entrance.');
    controller.pickNode(doc().paths.nodes[0]!);
    expect(doc().locations[0]!.entrances).toEqual(['n1']);
    expect(state()).toMatchObject({ entranceFor: null, panelOpen: true, toast: 'The path point is now an entrance of “Cafe”.' });
    controller.pickEntrance('cafe');
    key('Escape');
    expect(state()).toMatchObject({ entranceFor: null, panelOpen: true, tool: 'select' });
    // Another tool leaves the mode like any tool.
    controller.pickEntrance('cafe');
    key('p');
    expect(state()).toMatchObject({ entranceFor: null, tool: 'drawPath' });
    expect(clickModeOf(state(), false)).toBe('draw');
  });

  it('a panel\'s pin is a state of the tools machine: another pin replaces it, Add location or another tool leaves it', () => {
    const { controller, state, doc } = editor();
    const first = vi.fn();
    const second = vi.fn();
    controller.pickPoint('ground', first);
    controller.pickPoint('upper', second);
    expect(state()).toMatchObject({ tool: 'placeLocation', pinHint: 'Click the drawing at the place whose latitude and longitude you know. Esc cancels.' });
    expect(layerIdOf(state(), doc())).toBe('upper');
    controller.place({ x: 3, y: 4 });
    expect(first).not.toHaveBeenCalled();
    expect(second).toHaveBeenCalledWith({ x: 3, y: 4 });
    expect(state()).toMatchObject({ tool: 'select', pinHint: null, panelOpen: true });
    controller.pickPoint('ground', first);
    controller.chooseTool('drawPath');
    expect(state()).toMatchObject({ tool: 'drawPath', pinHint: null });
    controller.startAdding();
    controller.place({ x: 5, y: 6 });
    expect(first).not.toHaveBeenCalled();
    expect(doc().locations.at(-1)!.position).toEqual({ x: 5, y: 6 });
  });

  it('shows a moved location from the review of changes with its published place, until another is selected', () => {
    const { controller, state, screen } = editor({ narrow: true });
    controller.openTab('publish');
    controller.showPublishedChange('gym', { layer: 'upper', position: { x: 1, y: 1 } });
    expect(state()).toMatchObject({ selectedId: 'gym', tab: 'publish', panelOpen: false, ghost: { id: 'gym', layer: 'upper', position: { x: 1, y: 1 } } });
    screen.paint();
    expect(screen.shown).toEqual([{ x: 300, y: 40 }]);
    controller.select('cafe');
    expect(state().ghost).toBeNull();
  });

  it('the rail: a tab opens its panel, pressed again closes it; the timeline leaves placing and the preview', () => {
    const { controller, state } = editor();
    controller.pressTab('floors');
    expect(state()).toMatchObject({ tab: 'floors', panelOpen: true });
    controller.pressTab('floors');
    expect(state().panelOpen).toBe(false);
    controller.togglePreview();
    controller.startAdding();
    expect(state()).toMatchObject({ preview: false, tool: 'placeLocation' });
    controller.togglePreview();
    controller.openTimeline();
    expect(state()).toMatchObject({ preview: false, timeline: true, tool: 'select', panelOpen: false });
    controller.togglePreview();
    expect(state()).toMatchObject({ preview: true, timeline: false });
  });

  it('a path tool on a phone leaves the sheet closed over the map', () => {
    const { controller, state } = editor({ narrow: true });
    controller.chooseTool('drawPath');
    expect(state()).toMatchObject({ tool: 'drawPath', tab: 'paths', panelOpen: false });
    controller.openTab('paths');
    controller.choosePathTool('placeConnector');
    expect(state()).toMatchObject({ tool: 'placeConnector', panelOpen: false });
  });

  it('notifies its subscribers on a change and keeps the snapshot while nothing changes', () => {
    const { controller } = editor();
    const heard = vi.fn();
    controller.subscribe(heard);
    const before = controller.getSnapshot();
    controller.setLayer('ground');
    expect(controller.getSnapshot()).toBe(before);
    expect(heard).not.toHaveBeenCalled();
    controller.openTab('groups');
    expect(heard).toHaveBeenCalledTimes(1);
    expect(controller.getSnapshot()).not.toBe(before);
  });

  it('shows each person the tabs their access allows', () => {
    const ids = (access: Parameters<typeof visibleTabs>[0], comments = true) => visibleTabs(access, comments).map((tab) => tab.id);
    expect(ids('owner')).toContain('publish');
    expect(ids('editor')).not.toContain('publish');
    expect(ids('editor')).toContain('insights');
    expect(ids('viewer')).not.toContain('insights');
    expect(ids('explore', false)).not.toContain('comments');
    expect(ids('explore', false)).toContain('publish');
  });
});
