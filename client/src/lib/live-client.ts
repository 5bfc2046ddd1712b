/**
 * The tab's one websocket to `/api/live` (protocol version 2). Components subscribe to topics
 * (`maps:{uid}`, ...) and get each value the server pushes; the client keeps the socket open,
 * reconnects with exponential backoff and jitter, resubscribes every topic after a reconnect,
 * and drops snapshots older than one it already applied. A map topic (`map:{id}`) comes as one
 * snapshot and then the map stream's events, which the client folds in (events/map-live.ts):
 * it resubscribes with the last revision it has (`since`), after a reconnect and whenever an
 * event's revision is not the next one (a gap). `reached(topic, position)` resolves once a
 * topic reflects a write (read-your-writes without polling).
 */
// Before any schema runs, in whichever chunk loads first (see zod-without-eval.ts).
import './zod-without-eval';
import {
  CLOSE_OUTDATED_CLIENT,
  CLOSE_UNAUTHENTICATED,
  LIVE_PROTOCOL_QUERY,
  LIVE_PROTOCOL_VERSION,
  ServerMessage,
  type ClientMessage,
  type LiveMapEvent,
  type TopicSnapshot,
} from '../../../events/live-messages';
import { foldLiveEvents, liveMapOf, type LiveMap } from '../../../events/map-live';
import { comparePositions, parsePosition, type Position } from '../../../events/position';

/** `outdated`: the server speaks another protocol version; the page must be reloaded. */
export type ConnectionState = 'connecting' | 'open' | 'closed' | 'outdated';

/**
 * What a topic's listeners get: the topic's value; for a map, the map with every event so far
 * folded in, the events this update added (none after a snapshot), and whether it was a snapshot.
 */
export type LiveTopicData =
  | Exclude<TopicSnapshot, { kind: 'map' }>
  | { kind: 'map'; map: LiveMap; events: readonly LiveMapEvent[]; snapshot: boolean };

/** The part of the browser's WebSocket the client uses (the `ws` package's fits too). */
export interface LiveSocket {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketFactory = (url: string) => LiveSocket;

export interface LiveTopicError {
  code: string;
  message: string;
}

export interface LiveClientOptions {
  /** ws:// or wss:// address of /api/live; see {@link liveUrlFor}. */
  url: string;
  /** Opens a socket; defaults to the global WebSocket (tests pass the `ws` package's). */
  createSocket?: SocketFactory;
  /** First reconnect delay; it doubles up to {@link LiveClientOptions.maxDelayMs}. */
  minDelayMs?: number;
  maxDelayMs?: number;
  pingIntervalMs?: number;
  /** Called when the server closes the socket as unauthenticated (4401); reconnecting stops. */
  onUnauthenticated?: () => void;
  /** Called when the server speaks another protocol version (4426); reconnecting stops. */
  onOutdated?: (reason: string) => void;
  random?: () => number;
  /**
   * Clerk mode: where bearer tokens come from. A websocket cannot carry headers, so right after
   * the socket opens the client sends `{v, type: 'auth', token}`, and again every
   * {@link LiveClientOptions.tokenRefreshMs} with a fresh token (the server closes with 4401 when
   * no valid token arrives in time or the last one expires). Without it (the local mode) the
   * session cookie authenticates the socket and no auth message is sent.
   */
  getToken?: () => Promise<string | null>;
  tokenRefreshMs?: number;
}

/** The client's auth message (Clerk mode). */
export type LiveAuthMessage = Extract<ClientMessage, { type: 'auth' }>;

export const LIVE_MIN_DELAY_MS = 500;
export const LIVE_MAX_DELAY_MS = 15_000;
export const LIVE_PING_INTERVAL_MS = 25_000;
/** Clerk's session tokens live 60 s; a fresh one goes to the server every 50 s. */
export const LIVE_TOKEN_REFRESH_MS = 50_000;

const OPEN = 1;

/** The live address for a page location: same host, ws:// for http and wss:// for https. */
export function liveUrlFor(location: { protocol: string; host: string }): string {
  return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}/api/live`;
}

/**
 * The wait before reconnect attempt `attempt` (0 for the first): exponential backoff from
 * `minDelayMs`, doubling up to `maxDelayMs`, with "equal jitter" (half the step fixed, half
 * random) so tabs that lost the server together do not all come back in the same instant.
 */
export function reconnectDelay(attempt: number, options: { minDelayMs: number; maxDelayMs: number; random: () => number }): number {
  const step = Math.min(options.maxDelayMs, options.minDelayMs * 2 ** attempt);
  return step / 2 + options.random() * (step / 2);
}

type SnapshotListener = (data: LiveTopicData, position: Position) => void;
type ErrorListener = (error: LiveTopicError) => void;

interface TopicEntry {
  listeners: Set<{ onSnapshot: SnapshotListener; onError: ErrorListener | undefined }>;
  /** The last value applied, given at once to listeners that join later. */
  last: { data: LiveTopicData; position: Position } | null;
  waiters: Set<{ position: Position; resolve: () => void; reject: (error: Error) => void }>;
  /** A gap was seen and the events since the map's revision were asked for. */
  resyncing: boolean;
}

/** The value a topic's data carries, whatever its kind (what `useLiveTopic` checks with its schema). */
export function payloadOf(data: LiveTopicData): unknown {
  switch (data.kind) {
    case 'maps':
      return data.maps;
    case 'billing':
      return data.billing;
    case 'map':
      return data.map;
    case 'comments':
      return data.comments;
    default: {
      const unreachable: never = data;
      return unreachable;
    }
  }
}

/** The address with the protocol version the server checks on open. */
function withVersion(url: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${LIVE_PROTOCOL_QUERY}=${LIVE_PROTOCOL_VERSION}`;
}

export interface LiveClient {
  /** Follows a topic; returns the function that stops following it. */
  subscribe(topic: string, onSnapshot: SnapshotListener, onError?: ErrorListener): () => void;
  /** The position of the last snapshot applied for a topic, or null before the first. */
  positionOf(topic: string): Position | null;
  /**
   * Resolves once the topic has applied a snapshot at `position` or later. The topic must be
   * subscribed meanwhile; rejects if `signal` aborts or the last listener unsubscribes.
   */
  reached(topic: string, position: Position | string, options?: { signal?: AbortSignal }): Promise<void>;
  readonly state: ConnectionState;
  onStateChange(listener: (state: ConnectionState) => void): () => void;
  /** Opens the socket (again, after a 4401 or {@link LiveClient.disconnect}). */
  connect(): void;
  /** Closes the socket and stops reconnecting until {@link LiveClient.connect}. */
  disconnect(): void;
  /** Sends a message once the socket is open and signed in (dropped otherwise: resend after `open`). */
  send(message: ClientMessage): void;
  /** Hears every message the server sends (presence uses it for its own). */
  onServerMessage(listener: (message: ServerMessage) => void): () => void;
}

export function createLiveClient(options: LiveClientOptions): LiveClient {
  const minDelay = options.minDelayMs ?? LIVE_MIN_DELAY_MS;
  const maxDelay = options.maxDelayMs ?? LIVE_MAX_DELAY_MS;
  const pingInterval = options.pingIntervalMs ?? LIVE_PING_INTERVAL_MS;
  const random = options.random ?? Math.random;
  const tokenRefresh = options.tokenRefreshMs ?? LIVE_TOKEN_REFRESH_MS;
  const getToken = options.getToken;
  const createSocket: SocketFactory =
    options.createSocket ?? ((url) => new WebSocket(url) as unknown as LiveSocket);

  const topics = new Map<string, TopicEntry>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  const messageListeners = new Set<(message: ServerMessage) => void>();
  let state: ConnectionState = 'closed';
  let socket: LiveSocket | null = null;
  /** Whether the socket should be open: false after disconnect() or a 4401. */
  let wanted = false;
  let authenticated = false;
  let attempt = 0;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let pingTimer: ReturnType<typeof setInterval> | null = null;
  let tokenTimer: ReturnType<typeof setInterval> | null = null;
  let lastMessageAt = 0;

  function setState(next: ConnectionState) {
    if (state === next) return;
    state = next;
    for (const listener of [...stateListeners]) listener(next);
  }

  function send(message: ClientMessage) {
    if (socket && socket.readyState === OPEN && authenticated) socket.send(JSON.stringify(message));
  }

  function stopTimers() {
    if (reconnectTimer) clearTimeout(reconnectTimer);
    if (pingTimer) clearInterval(pingTimer);
    if (tokenTimer) clearInterval(tokenTimer);
    reconnectTimer = null;
    pingTimer = null;
    tokenTimer = null;
  }

  /** Sends a fresh token on `current` (Clerk mode), unless the socket has moved on meanwhile. */
  async function sendToken(current: LiveSocket) {
    if (!getToken) return;
    let token: string | null;
    try {
      token = await getToken();
    } catch {
      token = null;
    }
    // No token: say nothing; the server closes with 4401 and the session is checked again.
    if (!token || socket !== current || current.readyState !== OPEN) return;
    const message: LiveAuthMessage = { v: LIVE_PROTOCOL_VERSION, type: 'auth', token };
    current.send(JSON.stringify(message));
  }

  function open() {
    stopTimers();
    setState('connecting');
    authenticated = false;
    let current: LiveSocket;
    try {
      current = createSocket(withVersion(options.url));
    } catch {
      scheduleReconnect();
      return;
    }
    socket = current;
    current.onopen = () => {
      lastMessageAt = Date.now();
      if (getToken) {
        void sendToken(current);
        tokenTimer = setInterval(() => void sendToken(current), tokenRefresh);
      }
    };
    current.onmessage = (event) => {
      if (socket !== current) return;
      lastMessageAt = Date.now();
      onMessage(event.data);
    };
    current.onerror = () => {
      // A close event always follows; reconnecting is decided there.
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      authenticated = false;
      stopTimers();
      if (event.code === CLOSE_UNAUTHENTICATED) {
        wanted = false;
        setState('closed');
        options.onUnauthenticated?.();
        return;
      }
      if (event.code === CLOSE_OUTDATED_CLIENT) {
        // Reconnecting cannot help: this page's code is not the server's.
        wanted = false;
        setState('outdated');
        options.onOutdated?.(event.reason);
        return;
      }
      if (wanted) scheduleReconnect();
      else setState('closed');
    };
  }

  function scheduleReconnect() {
    setState('connecting');
    const delay = reconnectDelay(attempt, { minDelayMs: minDelay, maxDelayMs: maxDelay, random });
    attempt += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      if (wanted) open();
    }, delay);
  }

  function startPing() {
    pingTimer = setInterval(() => {
      const current = socket;
      if (!current) return;
      // Nothing heard for two pings and more: the connection is dead even if no close came.
      if (Date.now() - lastMessageAt > pingInterval * 2 + 5_000) {
        current.close(4000, 'No answer to ping');
        current.onclose?.({ code: 4000, reason: 'No answer to ping' });
        return;
      }
      send({ v: LIVE_PROTOCOL_VERSION, type: 'ping' });
    }, pingInterval);
  }

  function onMessage(raw: unknown) {
    if (typeof raw !== 'string') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return;
    }
    const parsed = ServerMessage.safeParse(json);
    if (!parsed.success) return;
    const message = parsed.data;
    for (const listener of [...messageListeners]) listener(message);
    switch (message.type) {
      case 'welcome':
        authenticated = true;
        attempt = 0;
        setState('open');
        startPing();
        for (const [topic, entry] of topics) subscribeMessage(topic, entry);
        return;
      case 'snapshot':
        return applySnapshot(message.topic, message.position, message.data);
      case 'events':
        return applyEvents(message.topic, message.events);
      case 'error': {
        if (!message.topic) return;
        const entry = topics.get(message.topic);
        for (const listener of entry?.listeners ?? []) listener.onError?.({ code: message.code, message: message.message });
        return;
      }
      // `access`: a role change in a map (issue 16), for the message listeners (the editor turns read-only).
      case 'pong':
      case 'presence':
      case 'access':
        return;
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  }

  /** Subscribes (again): for a map already held, with its revision, to be sent only what is missing. */
  function subscribeMessage(topic: string, entry: TopicEntry) {
    const held = entry.last?.data;
    const since = held?.kind === 'map' ? held.map.revision.toString() : undefined;
    send({ v: LIVE_PROTOCOL_VERSION, type: 'subscribe', topic, ...(since !== undefined ? { since } : {}) });
  }

  function applySnapshot(topic: string, wire: string, snapshot: TopicSnapshot) {
    const entry = topics.get(topic);
    if (!entry) return;
    let position: Position;
    try {
      position = parsePosition(wire);
    } catch {
      return;
    }
    let data: LiveTopicData;
    if (snapshot.kind === 'map') {
      // A map's order is its stream's: an older snapshot than the map held is dropped.
      const held = entry.last?.data;
      const map = liveMapOf(snapshot.map);
      if (held?.kind === 'map' && map.revision < held.map.revision) return;
      entry.resyncing = false;
      data = { kind: 'map', map, events: [], snapshot: true };
    } else {
      // Equal positions still apply: the server reads the checkpoint before the rows, so a later
      // snapshot at the same position can only be as fresh or fresher.
      if (entry.last && comparePositions(position, entry.last.position) < 0) return;
      data = snapshot;
    }
    publish(entry, data, position);
  }

  /** A map's events: folded in when they follow the map held; a gap asks for what is missing. */
  function applyEvents(topic: string, events: readonly LiveMapEvent[]) {
    const entry = topics.get(topic);
    const held = entry?.last?.data;
    // Before the snapshot (a push overtaking it): the snapshot and its catch-up will hold them.
    if (!entry || held?.kind !== 'map') return;
    const folded = foldLiveEvents(held.map, events);
    if (folded.applied.length > 0) {
      let position = entry.last!.position;
      try {
        const at = parsePosition(folded.applied.at(-1)!.position);
        if (comparePositions(at, position) > 0) position = at;
      } catch {
        // A position this client cannot read: the map still moves on; `reached` waits for the next.
      }
      publish(entry, { kind: 'map', map: folded.map, events: folded.applied, snapshot: false }, position);
    }
    if (folded.ok) {
      if (folded.applied.length > 0) entry.resyncing = false;
    } else if (!entry.resyncing) {
      entry.resyncing = true;
      subscribeMessage(topic, entry);
    }
  }

  function publish(entry: TopicEntry, data: LiveTopicData, position: Position) {
    entry.last = { data, position };
    for (const listener of [...entry.listeners]) listener.onSnapshot(data, position);
    for (const waiter of [...entry.waiters]) {
      if (comparePositions(position, waiter.position) >= 0) {
        entry.waiters.delete(waiter);
        waiter.resolve();
      }
    }
  }

  // Back online (a laptop waking up, a train leaving a tunnel): try now, not after the backoff.
  if (typeof window !== 'undefined') {
    window.addEventListener('online', () => {
      if (wanted && !socket) {
        attempt = 0;
        open();
      }
    });
  }

  return {
    subscribe(topic, onSnapshot, onError) {
      let entry = topics.get(topic);
      const isNew = !entry;
      if (!entry) {
        entry = { listeners: new Set(), last: null, waiters: new Set(), resyncing: false };
        topics.set(topic, entry);
      }
      const listener = { onSnapshot, onError };
      entry.listeners.add(listener);
      if (isNew) subscribeMessage(topic, entry);
      else if (entry.last) {
        const data = entry.last.data;
        // A late listener of a map gets it whole, as from a snapshot: no events to make sense of.
        onSnapshot(data.kind === 'map' ? { ...data, events: [], snapshot: true } : data, entry.last.position);
      }
      const owned = entry;
      return () => {
        owned.listeners.delete(listener);
        if (owned.listeners.size === 0 && topics.get(topic) === owned) {
          topics.delete(topic);
          for (const waiter of owned.waiters) waiter.reject(new Error(`Stopped following ${topic}`));
          send({ v: LIVE_PROTOCOL_VERSION, type: 'unsubscribe', topic });
        }
      };
    },

    positionOf(topic) {
      return topics.get(topic)?.last?.position ?? null;
    },

    reached(topic, target, reachedOptions = {}) {
      const position = typeof target === 'string' ? parsePosition(target) : target;
      const entry = topics.get(topic);
      if (!entry) return Promise.reject(new Error(`Not subscribed to ${topic}`));
      if (entry.last && comparePositions(entry.last.position, position) >= 0) return Promise.resolve();
      const signal = reachedOptions.signal;
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const waiter = {
          position,
          resolve: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          reject: (error: Error) => {
            signal?.removeEventListener('abort', onAbort);
            reject(error);
          },
        };
        const onAbort = () => {
          entry.waiters.delete(waiter);
          reject(signal?.reason);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        entry.waiters.add(waiter);
      });
    },

    get state() {
      return state;
    },

    onStateChange(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },

    connect() {
      if (wanted && socket) return;
      wanted = true;
      attempt = 0;
      if (!socket) open();
    },

    send,

    onServerMessage(listener) {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },

    disconnect() {
      wanted = false;
      stopTimers();
      const current = socket;
      socket = null;
      authenticated = false;
      if (current) {
        current.onclose = null;
        current.onmessage = null;
        current.close(1000, 'Client disconnected');
      }
      setState('closed');
    },
  };
}
