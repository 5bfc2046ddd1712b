/**
 * The editor's overlays and pointer go through the map's view (its ScreenProjection), not the
 * canvas's camera: on a street basemap floor MapLibre's view says where the floor's points are,
 * its units maybe scaled otherwise down than across, and that view arrives once MapLibre has
 * loaded. A fake projection stands for it here (jsdom has no WebGL); test/e2e/collaboration.test.ts
 * checks the real one in Chromium.
 */
import { act, fireEvent, render, waitFor } from '@testing-library/react';
import { createActor } from 'xstate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIVE_PROTOCOL_VERSION, type ClientMessage, type ServerMessage } from '../../events/live-messages';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import type { PresencePeer } from '../../events/presence';
import { Camera } from '../../client/src/components/map/camera';
import type { ScreenProjection } from '../../client/src/components/map/map-view';
import { affineOf, unitsPerPixel } from '../../client/src/components/map/screen-affine';
import type { MapPoint } from '../../client/src/components/map/types';
import { PresenceOverlay, PresenceProvider, usePresencePointer } from '../../client/src/features/editor/presence';
import { PathLayer } from '../../client/src/features/editor/paths/path-layer';
import { pathToolMachine } from '../../client/src/features/editor/tools/path-machine';
import { PublishedGhost } from '../../client/src/features/editor/published-ghost';
import { FakeLive } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

/** A north-up view whose floor units are `kx` pixels across and `ky` down (a basemap floor's may differ), its origin at (x, y). */
class FakeScreen implements ScreenProjection {
  readonly width = 800;
  readonly height = 600;
  zoom = 1;
  readonly listeners = new Set<() => void>();
  constructor(
    public kx: number,
    public ky: number,
    public x: number,
    public y: number,
  ) {}
  toScreen({ x, y }: MapPoint): MapPoint {
    return { x: x * this.kx + this.x, y: y * this.ky + this.y };
  }
  toMap(x: number, y: number): MapPoint {
    return { x: (x - this.x) / this.kx, y: (y - this.y) / this.ky };
  }
  onFrame(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** The view moves: its listeners hear it. */
  move(kx: number, ky: number, x: number, y: number) {
    Object.assign(this, { kx, ky, x, y });
    for (const listener of this.listeners) listener();
  }
}

const translated = (point: MapPoint) => `translate3d(${Math.round(point.x * 10) / 10}px, ${Math.round(point.y * 10) / 10}px, 0)`;

type PresenceMessage = Extract<ClientMessage, { type: 'presence' }>;
const presenceSent = (live: FakeLive) => live.sent.filter((m): m is PresenceMessage => m.type === 'presence');
const ada: PresencePeer = { id: 'p-ada', uid: 'u-ada', name: 'Ada Lovelace', state: { cursor: { layer: 'texas', x: 676, y: 475 }, selection: 'austin', editing: null } };
const full = (peers: PresencePeer[]): ServerMessage => ({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId: 'm1', full: true, self: { id: 'p-me', uid: 'u1', name: 'Ben Okafor' }, peers, left: [] });
const austin = Location.parse({ id: 'austin', title: 'Austin store', layer: 'texas', position: { x: 676, y: 475 } });
const doc: MapDocument = { ...emptyMapDocument(), locations: [austin] };

describe("others' pointers and selections on a street basemap floor", () => {
  it('are placed through the view shown, follow it as it moves, and move to the next view when it arrives', async () => {
    const live = new FakeLive();
    live.setState('open');
    const camera = new Camera();
    camera.setViewport(800, 600);
    camera.setMap(1000, 800, 1, 8, null);
    camera.flush();
    const anchorOf = (id: string) => (id === 'austin' ? austin.position : null);
    const overlay = (screen: ScreenProjection) => (
      <PresenceProvider mapId="m1" enabled live={live}>
        <PresenceOverlay screen={screen} document={doc} layerId="texas" anchorOf={anchorOf} />
      </PresenceProvider>
    );
    // Before MapLibre's view: the camera.
    const view = render(overlay(camera));
    act(() => live.deliver(full([ada])));
    const cursor = await waitFor(() => view.container.querySelector<HTMLElement>('.pr-cursor')!);
    expect(cursor.style.transform).toBe(translated(camera.toScreen({ x: 676, y: 475 })));

    // MapLibre's view has loaded: units longer down (1.19) than across, as Texas on a 1000 by 800 floor.
    const basemap = new FakeScreen(0.8, 0.952, 40, -30);
    view.rerender(overlay(basemap));
    expect(cursor.style.transform).toBe(translated({ x: 676 * 0.8 + 40, y: 475 * 0.952 - 30 }));
    const ring = view.container.querySelector<HTMLElement>('.pr-ring')!;
    expect(ring.style.transform).toBe(translated(basemap.toScreen(austin.position!)));
    expect(basemap.listeners.size).toBe(1);

    // Zoomed and panned: the marks follow on the view's frame.
    act(() => basemap.move(2, 2.38, -500, -700));
    expect(cursor.style.transform).toBe(translated({ x: 676 * 2 - 500, y: 475 * 2.38 - 700 }));
    expect(ring.style.transform).toBe(translated(basemap.toScreen(austin.position!)));

    // Back on a drawn floor: the camera again, the basemap's view left alone.
    view.rerender(overlay(camera));
    expect(basemap.listeners.size).toBe(0);
    expect(cursor.style.transform).toBe(translated(camera.toScreen({ x: 676, y: 475 })));
  });
});

function Pointer({ screen }: { screen: ScreenProjection }) {
  const handlers = usePresencePointer(screen, 'texas');
  return (
    <div data-testid="canvas" {...handlers}>
      <div className="mf-basemap" />
    </div>
  );
}

describe("this tab's pointer on a street basemap floor", () => {
  it('is sent as the point of the floor the view has under it, measured from the element MapLibre draws in', async () => {
    const live = new FakeLive();
    live.setState('open');
    const basemap = new FakeScreen(0.8, 0.952, 40, -30);
    const view = render(
      <PresenceProvider mapId="m1" enabled live={live}>
        <Pointer screen={basemap} />
      </PresenceProvider>,
    );
    const surface = view.container.querySelector('.mf-basemap')!;
    vi.spyOn(surface, 'getBoundingClientRect').mockReturnValue({ left: 100, top: 50, width: 800, height: 600, right: 900, bottom: 650, x: 100, y: 50, toJSON: () => ({}) });
    await waitFor(() => expect(presenceSent(live).length).toBeGreaterThan(0));
    // (jsdom has no PointerEvent: a mouse event of that type carries the coordinates.)
    fireEvent(view.getByTestId('canvas'), new MouseEvent('pointermove', { bubbles: true, clientX: 100 + 580.8, clientY: 50 + 422.2 }));
    const expected = basemap.toMap(580.8, 422.2);
    await waitFor(() => expect(presenceSent(live).at(-1)!.state!.cursor).toEqual({ layer: 'texas', x: Math.round(expected.x * 10) / 10, y: Math.round(expected.y * 10) / 10 }));
    expect(expected.x).toBeCloseTo(676, 0);
    expect(expected.y).toBeCloseTo(475, 0);

    // The map moves under a still pointer: the point now under it is sent.
    act(() => basemap.move(1.6, 1.904, -300, -200));
    const moved = basemap.toMap(580.8, 422.2);
    await waitFor(() => expect(presenceSent(live).at(-1)!.state!.cursor).toEqual({ layer: 'texas', x: Math.round(moved.x * 10) / 10, y: Math.round(moved.y * 10) / 10 }));
  });
});

describe('what the editor draws in the floor’s units over a street basemap floor', () => {
  it('the path network takes the view’s scale across and down, and follows it', () => {
    const basemap = new FakeScreen(0.8, 0.952, 40, -30);
    const network = { nodes: [], edges: [], connectors: [] };
    const tool = createActor(pathToolMachine, { input: { network, layer: 'texas', ids: (kind: string) => `${kind}-1` } }).start();
    const view = render(<PathLayer screen={basemap} network={network} layerId="texas" tool={tool} />);
    const group = view.container.querySelector('.pt-layer > g')!;
    expect(group.getAttribute('transform')).toBe('matrix(0.8 0 0 0.952 40 -30)');
    act(() => basemap.move(2, 2.5, -10, 20));
    expect(group.getAttribute('transform')).toBe('matrix(2 0 0 2.5 -10 20)');
    tool.stop();
  });

  it("a published location's ghost is placed through the view", () => {
    const basemap = new FakeScreen(0.8, 0.952, 40, -30);
    const view = render(<PublishedGhost screen={basemap} at={{ x: 100, y: 200 }} />);
    const ghost = view.getByTestId('published-ghost');
    expect(ghost.style.transform).toBe(translated({ x: 120, y: 160.4 }));
    act(() => basemap.move(2, 2.38, 0, 0));
    expect(ghost.style.transform).toBe(translated({ x: 200, y: 476 }));
  });

  it('reads a drawn floor’s camera as it was read before (one scale, its offset)', () => {
    const camera = new Camera();
    camera.setViewport(800, 600);
    camera.setMap(1000, 800, 1, 8, null);
    camera.zoomBy(3, 200, 100);
    const affine = affineOf(camera);
    expect(affine.kx).toBeCloseTo(camera.view.k, 12);
    expect(affine.ky).toBeCloseTo(camera.view.k, 12);
    expect(affine.x).toBe(camera.view.x);
    expect(affine.y).toBe(camera.view.y);
    expect(unitsPerPixel(camera)).toBeCloseTo(1 / camera.view.k, 12);
    expect(unitsPerPixel(new FakeScreen(0.8, 0.952, 40, -30))).toBeCloseTo(1.25, 12);
  });
});
