/**
 * Boundary fakes for component tests: a fetch that answers like the server's API, and a live
 * client the test drives by hand. Pages run unchanged above them.
 */
import { render } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { MemoryRouter, useLocation, useNavigate, type Location, type NavigateOptions, type RouteObject } from 'react-router-dom';
import { vi } from 'vitest';
import type { ClientMessage, ServerMessage } from '../../../events/live-messages';
import { comparePositions, parsePosition, type Position } from '../../../events/position';
import type { Principal } from '../../../events/principal';
import { AppProvider } from '../../../client/src/app/provider';
import type { AuthConfig } from '../../../client/src/features/auth/api/auth-api';
import type { RouteHandle } from '../../../client/src/app/lazy-page';
import { AppRoutes, routes } from '../../../client/src/app/router';
import { loadSessionRuntime } from '../../../client/src/app/session/local-session-shell';
import type { ConnectionState, LiveClient, LiveTopicData } from '../../../client/src/lib/live-client';
import type { LiveMapEvent } from '../../../events/live-messages';
import { foldLiveEvents, liveMapOf } from '../../../events/map-live';
import type { MapDocument } from '../../../events/map-document';
import type { HistoryEntry } from '../../../events/read-models';
import { parseTopic } from '../../../events/topics';

/**
 * Every page's chunk, the session's runtime and the layout's on-demand parts, loaded once when
 * this module is imported: the pages are lazy, and the first page a test opens must not spend
 * its waiting time on compiling modules (as the browser would download them, these load first).
 */
function preloadsOf(list: RouteObject[]): (() => Promise<unknown>)[] {
  return list.flatMap((route) => [...((route.handle as RouteHandle | undefined)?.preload ? [(route.handle as RouteHandle).preload!] : []), ...preloadsOf(route.children ?? [])]);
}
await Promise.all([
  ...preloadsOf(routes).map((preload) => preload()),
  loadSessionRuntime(),
  import('../../../client/src/features/billing/subscribe-modal'),
  import('../../../client/src/features/auth/components/verify-email-banner'),
  import('../../../client/src/features/viewer/viewer-app'),
  import('../../../client/src/features/editor/editor-screen'),
  import('../../../client/src/features/viewer/viewer'),
]);

export interface FakeRequest {
  method: string;
  path: string;
  data: unknown;
  /** The request's headers, names in lower case. */
  headers: Record<string, string>;
}

export interface FakeAnswer {
  status?: number;
  body: unknown;
}

type Route = (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>;

/**
 * Replaces the global fetch with one that answers from `routes` ("POST /api/auth/login": ...).
 * Unknown routes answer 404 in the server's error shape.
 */
export function stubFetch(routes: Record<string, Route>) {
  const requests: FakeRequest[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = url.replace(/^https?:\/\/[^/]+/, '');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { data?: unknown }) : undefined;
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([name, value]) => [name.toLowerCase(), value]));
    const request: FakeRequest = { method, path, data: body?.data, headers };
    requests.push(request);
    const route = routes[`${method} ${path}`];
    const answer = route ? await route(request) : { status: 404, body: { error: { status: 'NOT_FOUND', message: `No route ${method} ${path}` } } };
    return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetch: fetchMock, requests };
}

export function principal(overrides: Partial<Principal> = {}): Principal {
  return {
    uid: 'user-1',
    email: 'avery@example.com',
    emailVerified: true,
    displayName: 'Avery Quinn',
    admin: false,
    stripeRole: null,
    ...overrides,
  };
}

/**
 * The auth routes of a server where `user` is (or, with null, nobody is) signed in, the
 * maps query the session makes when it starts (no maps), and the maps shared with them (none).
 */
export function authRoutes(user: Principal | null): Record<string, Route> {
  let current = user;
  return {
    'GET /api/auth/me': () => ({ body: { result: current } }),
    'GET /api/maps': () =>
      current
        ? { body: { result: [], position: '-1:-1' } }
        : { status: 401, body: { error: { status: 'UNAUTHENTICATED', message: 'Unauthenticated' } } },
    // "Shared with me" on /maps (issue 16): nothing shared, unless a test says otherwise.
    'GET /api/maps/shared': () =>
      current
        ? { body: { result: [], position: '-1:-1' } }
        : { status: 401, body: { error: { status: 'UNAUTHENTICATED', message: 'Unauthenticated' } } },
    'POST /api/auth/logout': () => {
      current = null;
      return { body: { result: null } };
    },
  };
}

/**
 * A topic's value as the tests write it: the maps list (an array), the billing snapshot, or a
 * map record ({id, title, data, revision, history}), wrapped as the live client gives it.
 */
function topicData(topic: string, value: unknown): LiveTopicData {
  const kind = parseTopic(topic)?.kind;
  if (kind === 'maps') return { kind: 'maps', maps: value as Extract<LiveTopicData, { kind: 'maps' }>['maps'] };
  if (kind === 'billing') return { kind: 'billing', billing: value as Extract<LiveTopicData, { kind: 'billing' }>['billing'] };
  if (kind === 'comments') return { kind: 'comments', comments: value as Extract<LiveTopicData, { kind: 'comments' }>['comments'] };
  const record = value as { id: string; title: string; data: MapDocument; revision: string; history?: HistoryEntry[] };
  const map = liveMapOf({ id: record.id, title: record.title, document: record.data, revision: record.revision, history: record.history ?? [] });
  return { kind: 'map', map, events: [], snapshot: true };
}

/** A live client driven by the test: `emit` delivers a snapshot, `emitEvents` a map's events, `setState` the connection. */
export class FakeLive implements LiveClient {
  state: ConnectionState = 'closed';
  connects = 0;
  readonly listeners = new Map<string, Set<(data: LiveTopicData, position: Position) => void>>();
  private readonly values = new Map<string, LiveTopicData>();
  private readonly positions = new Map<string, Position>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private readonly waiters = new Set<{ topic: string; position: Position; resolve: () => void }>();

  readonly errorListeners = new Map<string, Set<(error: { code: string; message: string }) => void>>();

  subscribe(topic: string, onSnapshot: (data: LiveTopicData, position: Position) => void, onError?: (error: { code: string; message: string }) => void) {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(onSnapshot);
    let errors = this.errorListeners.get(topic);
    if (!errors) this.errorListeners.set(topic, (errors = new Set()));
    if (onError) errors.add(onError);
    return () => {
      set.delete(onSnapshot);
      if (onError) errors.delete(onError);
    };
  }

  /** The server refuses or ends a topic (an `error` message). */
  fail(topic: string, code: string, message: string) {
    for (const listener of [...(this.errorListeners.get(topic) ?? [])]) listener({ code, message });
  }

  emit(topic: string, value: unknown, position: string) {
    this.deliverTopic(topic, topicData(topic, value), position);
  }

  /** A map's events, folded into the map emitted before (as the live client folds them). */
  emitEvents(topic: string, events: LiveMapEvent[]) {
    const held = this.values.get(topic);
    if (held?.kind !== 'map') throw new Error(`emit a snapshot of ${topic} first`);
    const folded = foldLiveEvents(held.map, events);
    if (!folded.ok) throw new Error('a gap in the emitted events');
    this.deliverTopic(topic, { kind: 'map', map: folded.map, events: folded.applied, snapshot: false }, events.at(-1)?.position ?? '0:0');
  }

  private deliverTopic(topic: string, data: LiveTopicData, position: string) {
    const at = parsePosition(position);
    this.positions.set(topic, at);
    this.values.set(topic, data);
    for (const listener of this.listeners.get(topic) ?? []) listener(data, at);
    for (const waiter of [...this.waiters]) {
      if (waiter.topic === topic && comparePositions(at, waiter.position) >= 0) {
        this.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  positionOf(topic: string) {
    return this.positions.get(topic) ?? null;
  }

  reached(topic: string, target: Position | string) {
    const position = typeof target === 'string' ? parsePosition(target) : target;
    const current = this.positions.get(topic);
    if (current && comparePositions(current, position) >= 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.add({ topic, position, resolve }));
  }

  onStateChange(listener: (state: ConnectionState) => void) {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  setState(state: ConnectionState) {
    this.state = state;
    for (const listener of [...this.stateListeners]) listener(state);
  }

  connect() {
    this.connects++;
    this.setState('open');
  }

  disconnect() {
    this.setState('closed');
  }

  /** Every message the page sent (presence's), in order. */
  readonly sent: ClientMessage[] = [];
  private readonly messageListeners = new Set<(message: ServerMessage) => void>();

  send(message: ClientMessage) {
    if (this.state === 'open') this.sent.push(message);
  }

  onServerMessage(listener: (message: ServerMessage) => void) {
    this.messageListeners.add(listener);
    return () => {
      this.messageListeners.delete(listener);
    };
  }

  /** Delivers a server message (presence) to the page. */
  deliver(message: ServerMessage) {
    for (const listener of [...this.messageListeners]) listener(message);
  }
}

type AppPath = string | { pathname: string; search?: string; state?: unknown };
type AppOptions = { authConfig?: AuthConfig };

/**
 * Renders the whole app (providers and routes) at `path`, in a memory router. `live` null
 * lets the app make the tab's own live client (over the global WebSocket).
 */
export function renderApp(path: AppPath, live?: FakeLive, options?: AppOptions): ReturnType<typeof renderWith> & { live: FakeLive };
export function renderApp(path: AppPath, live: null, options?: AppOptions): ReturnType<typeof renderWith>;
export function renderApp(path: AppPath, live: FakeLive | null = new FakeLive(), options: AppOptions = {}) {
  return renderWith(path, live, options);
}

/**
 * The app's router as the tests see it: where it is now (`state.location`, updated as each
 * location renders) and `navigate`. Route changes are transitions (the old page stays until the
 * new one is loaded): wait for the new page, e.g. with `findBy...`, not for `navigate`.
 */
export interface TestRouter {
  state: { location: Location };
  navigate(to: string, options?: NavigateOptions): Promise<void>;
}

function RouterProbe({ router }: { router: TestRouter }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    router.state.location = location;
    router.navigate = async (to, options) => {
      await navigate(to, options);
    };
  }, [router, location, navigate]);
  return null;
}

function testRouter(): TestRouter {
  return {
    state: { location: { pathname: '', search: '', hash: '', state: null, key: '' } },
    navigate: () => Promise.reject(new Error('The app has not rendered yet.')),
  };
}

function renderWith(path: AppPath, live: FakeLive | null, options: AppOptions) {
  const router = testRouter();
  const view = render(
    <MemoryRouter initialEntries={[path]}>
      <AppProvider {...(live ? { live } : {})} {...options} navigate={(to, navigateOptions) => void router.navigate(to, navigateOptions)}>
        <AppRoutes />
      </AppProvider>
      <RouterProbe router={router} />
    </MemoryRouter>,
  );
  return { ...view, router, live };
}
