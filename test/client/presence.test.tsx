/**
 * Presence in the editor: the session's throttle, keepalive and rejoin over the live client;
 * the avatars, the others' pointers (on the same spot of the plan at any zoom) and outlines;
 * "Ada is editing this location"; and the editor reporting its selection and open form.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LIVE_PROTOCOL_VERSION, type ClientMessage, type ServerMessage } from '../../events/live-messages';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import type { PresencePeer, PresenceState } from '../../events/presence';
import { Camera } from '../../client/src/components/map/camera';
import { EditingNotice, PresenceAvatars, PresenceOverlay, PresenceProvider } from '../../client/src/features/editor/presence';
import { peerColor, PEER_COLORS } from '../../client/src/features/editor/presence/peer-color';
import { PresenceSession } from '../../client/src/features/editor/presence/presence-session';
import { authRoutes, FakeLive, principal, renderApp, stubFetch } from './support/fakes';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

type PresenceMessage = Extract<ClientMessage, { type: 'presence' }>;
const presenceSent = (live: FakeLive) => live.sent.filter((m): m is PresenceMessage => m.type === 'presence');

const state = (over: Partial<PresenceState> = {}): PresenceState => ({ cursor: null, selection: null, editing: null, ...over });
const ada: PresencePeer = { id: 'p-ada', uid: 'u-ada', name: 'Ada Lovelace', state: state({ cursor: { layer: 'ground', x: 200, y: 150 }, selection: 'cafe', editing: 'cafe' }) };
const otherTab: PresencePeer = { id: 'p-me-2', uid: 'u1', name: 'Avery Quinn', state: state({ cursor: { layer: 'ground', x: 50, y: 60 } }) };
const upstairs: PresencePeer = { id: 'p-ben', uid: 'u-ben', name: 'Ben Okafor', state: state({ cursor: { layer: 'first', x: 10, y: 10 } }) };

const full = (peers: PresencePeer[], self = { id: 'p-me', uid: 'u1', name: 'Avery Quinn' }): ServerMessage => ({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId: 'm1', full: true, self, peers, left: [] });
const change = (peers: PresencePeer[], left: string[] = []): ServerMessage => ({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId: 'm1', full: false, peers, left });

describe('the presence session', () => {
  it('sends at most one update per 50 ms, always the newest, and keeps alive while idle', () => {
    vi.useFakeTimers();
    const live = new FakeLive();
    live.setState('open');
    const session = new PresenceSession(live, 'm1');
    session.start();
    expect(presenceSent(live)).toEqual([{ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId: 'm1', state: state() }]);

    // A pointer moving every 5 ms for one second: 200 changes, about 20 updates.
    for (let step = 1; step <= 200; step++) {
      session.set({ cursor: { layer: 'ground', x: step, y: 0 } });
      vi.advanceTimersByTime(5);
    }
    vi.advanceTimersByTime(100);
    const moves = presenceSent(live).slice(1);
    expect(moves.length).toBeGreaterThanOrEqual(15);
    expect(moves.length).toBeLessThanOrEqual(21);
    expect(moves.at(-1)!.state!.cursor).toEqual({ layer: 'ground', x: 200, y: 0 });

    // Idle: a keepalive every 2 to 3 seconds, with the same state.
    const before = presenceSent(live).length;
    vi.advanceTimersByTime(10_000);
    const keepalives = presenceSent(live).slice(before);
    expect(keepalives.length).toBeGreaterThanOrEqual(4);
    expect(keepalives.length).toBeLessThanOrEqual(5);
    expect(keepalives.every((m) => m.state?.cursor?.x === 200)).toBe(true);

    session.stop();
    expect(presenceSent(live).at(-1)).toEqual({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId: 'm1', state: null });
  });

  it('shows nobody while the socket is down, and joins again when it is back', () => {
    const live = new FakeLive();
    live.setState('open');
    const session = new PresenceSession(live, 'm1');
    session.start();
    session.set({ selection: 'cafe' });
    live.deliver(full([ada]));
    expect(session.getSnapshot().peers).toEqual([ada]);
    // Another map's presence is not this one's.
    live.deliver({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId: 'm2', full: false, peers: [upstairs], left: [] });
    expect(session.getSnapshot().peers).toEqual([ada]);

    live.setState('connecting');
    expect(session.getSnapshot()).toEqual({ self: null, peers: [] });
    live.setState('open');
    expect(presenceSent(live).at(-1)).toMatchObject({ mapId: 'm1', state: { selection: 'cafe' } });
    session.stop();
  });

  it('keeps the roster (avatars, forms) still while only pointers move', () => {
    const live = new FakeLive();
    live.setState('open');
    const session = new PresenceSession(live, 'm1');
    session.start();
    live.deliver(full([ada]));
    const roster = session.getRoster();
    live.deliver(change([{ ...ada, state: { ...ada.state, cursor: { layer: 'ground', x: 1, y: 2 } } }]));
    expect(session.getRoster()).toBe(roster);
    expect(session.getSnapshot()).not.toBe(roster);
    live.deliver(change([{ ...ada, state: { ...ada.state, editing: null } }]));
    expect(session.getRoster()).not.toBe(roster);
    session.stop();
  });

  it("gives each person one colour of the palette, the same every time", () => {
    expect(peerColor('u-ada')).toBe(peerColor('u-ada'));
    expect(PEER_COLORS).toContain(peerColor('u-ada'));
    const spread = new Set(Array.from({ length: 200 }, (_, index) => peerColor(`user-${index}`)));
    expect(spread.size).toBe(PEER_COLORS.length);
  });
});

describe('presence on the map', () => {
  const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 400, y: 300 } });
  const doc: MapDocument = { ...emptyMapDocument(), locations: [cafe] };

  function setup() {
    const live = new FakeLive();
    live.setState('open');
    const camera = new Camera();
    camera.setViewport(800, 600);
    camera.setMap(1000, 800, 1, 8, null);
    camera.flush();
    const anchorOf = (id: string) => (id === 'cafe' ? cafe.position : null);
    const onLayerChange = vi.fn();
    const view = render(
      <PresenceProvider mapId="m1" enabled live={live}>
        <PresenceAvatars centreOn={(at) => camera.centerOn(at, camera.zoom, true)} document={doc} onLayerChange={onLayerChange} />
        <EditingNotice locationId="cafe" />
        <div style={{ position: 'relative' }}>
          <PresenceOverlay screen={camera} document={doc} layerId="ground" anchorOf={anchorOf} />
        </div>
      </PresenceProvider>,
    );
    return { live, camera, view, onLayerChange };
  }

  const translated = (point: { x: number; y: number }) => `translate3d(${Math.round(point.x * 10) / 10}px, ${Math.round(point.y * 10) / 10}px, 0)`;

  it("draws the others' pointers and selections where they are on the plan, at any zoom", async () => {
    const { live, camera, view } = setup();
    await waitFor(() => expect(presenceSent(live)).toHaveLength(1));
    act(() => live.deliver(full([ada, otherTab, upstairs])));

    const cursors = [...view.container.querySelectorAll<HTMLElement>('.pr-cursor')];
    // Ben is on another floor: no pointer on this one.
    expect(cursors.map((cursor) => cursor.textContent)).toEqual(['Ada Lovelace', 'You (other tab)']);
    const adaCursor = cursors[0]!;
    expect(adaCursor.style.transform).toBe(translated(camera.toScreen({ x: 200, y: 150 })));
    expect(adaCursor.style.getPropertyValue('--pr-color')).toBe(peerColor('u-ada'));
    expect(cursors[1]!.dataset.mine).toBe('true');

    // Zoomed in: the pointer follows its spot of the plan.
    const before = adaCursor.style.transform;
    act(() => {
      camera.zoomBy(2, 100, 100);
      camera.flush();
    });
    expect(adaCursor.style.transform).toBe(translated(camera.toScreen({ x: 200, y: 150 })));
    expect(adaCursor.style.transform).not.toBe(before);

    // Ada's selection is outlined in her colour, named.
    const ring = view.container.querySelector<HTMLElement>('.pr-ring')!;
    expect(ring.textContent).toBe('Ada Lovelace');
    expect(ring.style.transform).toBe(translated(camera.toScreen(cafe.position!)));

    // She moves, then leaves.
    act(() => live.deliver(change([{ ...ada, state: { ...ada.state, cursor: { layer: 'ground', x: 600, y: 500 } } }])));
    expect(view.container.querySelector<HTMLElement>('.pr-cursor')!.style.transform).toBe(translated(camera.toScreen({ x: 600, y: 500 })));
    // Her second tab on the same location: still one ring for her; this person's other tab, one more.
    act(() => live.deliver(change([{ ...ada, id: 'p-ada-2', state: state({ selection: 'cafe' }) }, { ...otherTab, state: { ...otherTab.state, selection: 'cafe' } }])));
    expect([...view.container.querySelectorAll('.pr-ring')].map((ring) => ring.textContent)).toEqual(['Ada Lovelace', 'You (other tab)']);
    act(() => live.deliver(change([{ ...otherTab }], ['p-ada', 'p-ada-2'])));
    expect([...view.container.querySelectorAll('.pr-cursor')].map((cursor) => cursor.textContent)).toEqual(['You (other tab)']);
    expect(view.container.querySelector('.pr-ring')).toBeNull();
  });

  it('shows everyone in the map once as an avatar, and who is editing the location', async () => {
    const { live } = setup();
    await waitFor(() => expect(presenceSent(live)).toHaveLength(1));
    // Alone: no avatars.
    act(() => live.deliver(full([])));
    expect(screen.queryByRole('list', { name: /In this map now/ })).toBeNull();

    act(() => live.deliver(full([ada, otherTab])));
    const avatars = within(screen.getByRole('list', { name: 'In this map now: 2 people' }));
    expect(avatars.getAllByRole('listitem').map((item) => item.getAttribute('title'))).toEqual(['Ada Lovelace', 'You, Avery Quinn (2 tabs)']);
    expect(avatars.getAllByRole('listitem')[0]).toHaveTextContent('AL');
    expect(screen.getByRole('status')).toHaveTextContent('Ada Lovelace is editing this location');

    act(() => live.deliver(change([{ ...otherTab, state: state({ editing: 'cafe' }) }], ['p-ada'])));
    expect(screen.getByRole('status')).toHaveTextContent('You are editing this location in another tab');
    act(() => live.deliver(change([{ ...upstairs, state: state({ editing: 'cafe' }) }, { ...ada, id: 'p-ada-2' }, { ...ada, id: 'p-ada-3', uid: 'u-cy', name: 'Cy Twombly' }, { ...ada, id: 'p-ada-4', uid: 'u-di', name: 'Di' }])));
    expect(screen.getByRole('status')).toHaveTextContent('Ben Okafor, Ada Lovelace, Cy Twombly and Di are editing this location (and you, in another tab)');
    // Five people: the first two, you, and "+2" for the rest.
    const many = within(screen.getByRole('list', { name: 'In this map now: 5 people' }));
    expect(many.getAllByRole('listitem').map((item) => item.getAttribute('title'))).toEqual(['Ben Okafor', 'Ada Lovelace', 'You, Avery Quinn (2 tabs)', 'Cy Twombly, Di']);
    expect(many.getAllByRole('listitem').at(-1)).toHaveTextContent('+2');
  });
});

describe('following someone', () => {
  it("takes the map to a person's pointer when their avatar is clicked", async () => {
    const user = userEvent.setup();
    const live = new FakeLive();
    live.setState('open');
    const camera = new Camera();
    camera.setViewport(800, 600);
    camera.setMap(1000, 800, 1, 8, null);
    camera.zoomBy(4);
    camera.flush();
    const onLayerChange = vi.fn();
    render(
      <PresenceProvider mapId="m1" enabled live={live}>
        <PresenceAvatars centreOn={(at) => camera.centerOn(at, camera.zoom, true)} document={emptyMapDocument()} onLayerChange={onLayerChange} />
      </PresenceProvider>,
    );
    await waitFor(() => expect(presenceSent(live)).toHaveLength(1));
    act(() => live.deliver(full([ada, upstairs])));
    // Ben is upstairs: his floor, then his spot.
    await user.click(await screen.findByRole('button', { name: 'Go to Ben Okafor' }));
    expect(onLayerChange).toHaveBeenLastCalledWith('first');
    act(() => live.deliver(change([{ ...ada, state: { ...ada.state, cursor: { layer: 'ground', x: 300, y: 250 } } }])));
    await user.click(screen.getByRole('button', { name: 'Go to Ada Lovelace' }));
    expect(onLayerChange).toHaveBeenLastCalledWith('ground');
    await waitFor(() => {
      const middle = camera.toMap(400, 300);
      expect(middle.x).toBeCloseTo(300, 0);
      expect(middle.y).toBeCloseTo(250, 0);
    });
    // Oneself is no button.
    expect(screen.queryByRole('button', { name: /Go to You/ })).toBeNull();
  });
});

describe('the editor reports its presence', () => {
  const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 100, y: 100 } });
  const document: MapDocument = { ...emptyMapDocument(), locations: [cafe] };

  it('joins the map, says which location it has open, and shows who else has it open', async () => {
    const user = userEvent.setup();
    stubFetch({
      ...authRoutes(principal({ uid: 'u1' })),
      'GET /api/maps/m1/data': () => ({ body: { result: { id: 'm1', title: 'Harbour Market', data: document, revision: '1' }, position: '3:0' } }),
      'GET /api/public/maps/m1': () => ({ body: { result: { id: 'm1', title: 'Harbour Market', data: document, revision: '1', state: 0, test: true } } }),
    });
    const { live } = renderApp('/maps/m1');
    await screen.findByRole('region', { name: /Map editor/ }, { timeout: 15_000 });
    await waitFor(() => expect(presenceSent(live).at(-1)).toEqual({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId: 'm1', state: state() }));
    act(() => live.deliver(full([ada])));
    expect(within(await screen.findByRole('list', { name: /In this map now/ })).getAllByRole('listitem')[0]).toHaveAttribute('title', 'Ada Lovelace');

    await user.click(within(screen.getByRole('list', { name: /^Locations on/ })).getByRole('button', { name: 'Cafe' }));
    await waitFor(() => expect(presenceSent(live).at(-1)?.state).toMatchObject({ selection: 'cafe', editing: 'cafe' }));
    expect(await screen.findByText('Ada Lovelace is editing this location')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'All locations' }));
    await waitFor(() => expect(presenceSent(live).at(-1)?.state).toMatchObject({ selection: null, editing: null }));
  });
});
