/**
 * The route's overlay and the zoom buttons read the map through its view (MapView), not the
 * canvas's Camera, so they are right on a floor on a street basemap too (issue 29): given a fake
 * view whose projection is not square (a basemap floor's units need not be), the route is drawn
 * where the view's projection puts it, fitted through the view (its insets and zoom cap), once
 * the view can move when it could not yet, the visitor's step kept in sight through the view;
 * the zoom buttons follow the limits its projection gives on its frames.
 */
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FitOptions, Insets, MapView } from '../../client/src/components/map/map-view';
import type { MapPoint } from '../../client/src/components/map/types';
import { RouteOverlay } from '../../client/src/features/viewer/directions/route-overlay';
import { ROUTE_INSETS, ROUTE_MAX_ZOOM } from '../../client/src/features/viewer/directions/fit-route';
import { MapControls } from '../../client/src/features/viewer/viewer-controls';
import type { ViewerController } from '../../client/src/features/viewer/controller/viewer-controller';
import type { Route } from '../../events/wayfinding/route-types';

/** A view 800 × 600 whose floor is stretched twice across and three times down, and what it is asked. */
function fakeView({ canMove = true } = {}) {
  const frames = new Set<() => void>();
  const state = { canMove };
  const view = {
    state,
    frame: () => frames.forEach((listener) => listener()),
    listening: () => frames.size,
    screen: {
      width: 800,
      height: 600,
      canZoomIn: true,
      canZoomOut: false,
      toScreen: ({ x, y }: MapPoint) => ({ x: x * 2 + 10, y: y * 3 + 20 }),
      toMap: (x: number, y: number) => ({ x: (x - 10) / 2, y: (y - 20) / 3 }),
      zoom: 1,
      onFrame: (listener: () => void) => {
        frames.add(listener);
        return () => frames.delete(listener);
      },
    },
    fitTo: vi.fn((_points: readonly MapPoint[], _padding: number | Insets, _options?: FitOptions) => state.canMove),
    ensureVisible: vi.fn(),
    zoomBy: vi.fn(),
    resetView: vi.fn(),
    anchorOf: () => null,
    extentOf: () => null,
    revealZoom: () => null,
    focus: vi.fn(),
    flyTo: () => true,
    setSelected: vi.fn(),
    showLocations: vi.fn(),
    on: () => () => undefined,
  } satisfies MapView & Record<string, unknown>;
  return view;
}

/** A route on the floor 'street': along the top, then down; its steps: depart, a turn, arrive. */
const route: Route = {
  from: { location: 'a', node: 'n1' },
  to: { location: 'b', node: 'n3' },
  stepFree: false,
  legs: [{ layer: 'street', points: [{ x: 100, y: 50 }, { x: 200, y: 50 }, { x: 200, y: 120 }], distance: 170 }],
  steps: [
    { kind: 'depart', layer: 'street', at: { x: 100, y: 50 }, distance: 0, metres: 0 },
    { kind: 'right', layer: 'street', at: { x: 200, y: 50 }, distance: 100, metres: 100 },
    { kind: 'arrive', layer: 'street', at: { x: 200, y: 120 }, distance: 70, metres: 70 },
  ],
  distance: 170,
  metres: 170,
  seconds: 120,
  floorChanges: 0,
};

const overlay = (view: MapView | null, step: number | null = null) => <RouteOverlay view={view} route={route} layerId="street" step={step} here={null} onFloor={() => undefined} />;

describe('the route over a map view', () => {
  it('is drawn where the view’s projection puts the floor’s points, across and down, and again on each of its frames', () => {
    const view = fakeView();
    const { container } = render(overlay(view));
    const line = container.querySelector('.mf-route__line')!;
    expect(line.getAttribute('d')).toBe('M210.0 170.0L410.0 170.0L410.0 380.0');
    expect((container.querySelector('.mf-route__start') as SVGElement).style.transform).toBe('translate(210.0px, 170.0px)');
    expect((container.querySelector('.mf-route__end') as SVGElement).style.transform).toBe('translate(410.0px, 380.0px)');
    // The view moved (MapLibre's 'move'): drawn again where it says now.
    view.screen.toScreen = ({ x, y }) => ({ x, y });
    act(() => view.frame());
    expect(line.getAttribute('d')).toBe('M100.0 50.0L200.0 50.0L200.0 120.0');
  });

  it('is fitted through the view, within the controls’ insets and no deeper than the route’s cap, jumping there the first time', () => {
    const view = fakeView();
    render(overlay(view));
    expect(view.fitTo).toHaveBeenCalledTimes(1);
    const [points, padding, options] = view.fitTo.mock.calls[0]!;
    expect(points).toEqual([{ x: 100, y: 50 }, { x: 200, y: 50 }, { x: 200, y: 120 }]);
    expect(padding).toEqual(ROUTE_INSETS);
    expect(options).toEqual({ maxZoom: ROUTE_MAX_ZOOM, animate: false });
  });

  it('waits for a view that cannot move yet (its first drawing still coming) and fits the route as it draws', () => {
    const view = fakeView({ canMove: false });
    render(overlay(view));
    expect(view.fitTo).toHaveBeenCalledTimes(1);
    view.state.canMove = true;
    act(() => view.frame());
    expect(view.fitTo).toHaveBeenCalledTimes(2);
    // Fitted: later frames (the fit's own) leave the view alone; only the drawing listens.
    act(() => view.frame());
    expect(view.fitTo).toHaveBeenCalledTimes(2);
    expect(view.listening()).toBe(1);
  });

  it('draws nothing and fits nothing before the view is there, then fits on the view handed over', () => {
    const { container, rerender } = render(overlay(null));
    expect(container.querySelector('.mf-route__line')!.getAttribute('d')).toBeNull();
    const view = fakeView();
    rerender(overlay(view));
    expect(view.fitTo).toHaveBeenCalledTimes(1);
    // Another view of the same floor (the basemap's MapLibre once its chunk is in): fitted there too.
    const basemap = fakeView();
    rerender(overlay(basemap));
    expect(basemap.fitTo).toHaveBeenCalledTimes(1);
  });

  it('keeps the visitor’s step in sight through the view', () => {
    const view = fakeView();
    const { rerender } = render(overlay(view, 0));
    rerender(overlay(view, 1));
    expect(view.ensureVisible).toHaveBeenCalledWith({ x: 200, y: 50 }, 80);
    expect(view.fitTo).toHaveBeenCalledTimes(1);
  });
});

describe('the zoom buttons over a map view', () => {
  it('follow the limits of the view’s projection on each of its frames', () => {
    const view = fakeView();
    const controller = { view, viewDrawn: true } as unknown as ViewerController;
    render(<MapControls actions={null} controller={controller} zoom fullscreen={false} onFullscreen={null} />);
    const zoomIn = screen.getByRole('button', { name: 'Zoom in' });
    const zoomOut = screen.getByRole('button', { name: 'Zoom out' });
    expect(zoomIn).toBeEnabled();
    expect(zoomOut).toBeDisabled();
    // Zoomed in as far as MapLibre goes.
    Object.assign(view.screen, { canZoomIn: false, canZoomOut: true });
    act(() => view.frame());
    expect(zoomIn).toBeDisabled();
    expect(zoomOut).toBeEnabled();
    act(() => zoomOut.click());
    expect(view.zoomBy).toHaveBeenCalledWith(1 / 1.6);
  });

  it('are disabled until a floor of the map is drawn (the server’s page, a street map’s MapLibre loading)', () => {
    for (const view of [null, fakeView()]) {
      const controller = { view, viewDrawn: false } as unknown as ViewerController;
      const { unmount } = render(<MapControls actions={null} controller={controller} zoom fullscreen={false} onFullscreen={null} />);
      for (const name of ['Zoom in', 'Zoom out', 'Reset view']) expect(screen.getByRole('button', { name })).toBeDisabled();
      unmount();
    }
  });
});
