/**
 * The tab's presence in one map: what it tells the others (its pointer, its selection, the
 * location whose form is open) and who else is there, over the tab's live socket.
 *
 * It sends its whole state (small) at most every {@link PRESENCE_MIN_INTERVAL_MS} (a pointer
 * moves far more often: the newest position waits for the next slot) and again every
 * {@link PRESENCE_KEEPALIVE_MS} while nothing changes, so the server keeps it. On every
 * (re)connection it joins again; while the socket is not open it shows nobody, since it cannot
 * know who is still there. A tiny external store for `useSyncExternalStore`.
 */
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../../../../../events/live-messages';
import { NO_PRESENCE, PRESENCE_KEEPALIVE_MS, PRESENCE_MIN_INTERVAL_MS, samePresence, type PresencePeer, type PresenceState } from '../../../../../events/presence';
import type { LiveClient } from '../../../lib/live-client';

export interface PresenceSelf {
  id: string;
  uid: string;
  name: string;
}

export interface PresenceSnapshot {
  /** This tab as the server knows it; null until joined. */
  self: PresenceSelf | null;
  /** Everyone else in the map: other people, and this person's other tabs (same `uid`). */
  peers: readonly PresencePeer[];
}

export interface PresenceSessionOptions {
  minIntervalMs?: number;
  keepaliveMs?: number;
  now?: () => number;
}

const EMPTY: PresenceSnapshot = { self: null, peers: [] };

export class PresenceSession {
  private state: PresenceState = NO_PRESENCE;
  private readonly peers = new Map<string, PresencePeer>();
  private snapshot: PresenceSnapshot = EMPTY;
  /** Changes only when someone comes, goes, or changes selection or form (not on pointer moves). */
  private roster: PresenceSnapshot = EMPTY;
  private rosterKey = '';
  private readonly listeners = new Set<() => void>();
  private readonly minInterval: number;
  private readonly keepalive: number;
  private readonly now: () => number;
  private sentAt = -Infinity;
  private sendTimer: ReturnType<typeof setTimeout> | null = null;
  private keepaliveTimer: ReturnType<typeof setInterval> | null = null;
  private stops: Array<() => void> = [];

  constructor(
    private readonly live: LiveClient,
    readonly mapId: string,
    options: PresenceSessionOptions = {},
  ) {
    this.minInterval = options.minIntervalMs ?? PRESENCE_MIN_INTERVAL_MS;
    this.keepalive = options.keepaliveMs ?? PRESENCE_KEEPALIVE_MS;
    this.now = options.now ?? Date.now;
  }

  start(): void {
    this.stops.push(this.live.onServerMessage((message) => this.onMessage(message)));
    this.stops.push(
      this.live.onStateChange((state) => {
        if (state === 'open') this.sendNow();
        else this.clear();
      }),
    );
    // Checked twice per keepalive, so the server hears from a quiet tab every 2 to 3 s.
    this.keepaliveTimer = setInterval(() => {
      if (this.now() - this.sentAt >= this.keepalive - 50) this.sendNow();
    }, this.keepalive / 2);
    if (this.live.state === 'open') this.sendNow();
  }

  /** Leaves the map (the editor closed). */
  stop(): void {
    for (const stop of this.stops) stop();
    this.stops = [];
    if (this.sendTimer) clearTimeout(this.sendTimer);
    if (this.keepaliveTimer) clearInterval(this.keepaliveTimer);
    this.sendTimer = null;
    this.keepaliveTimer = null;
    if (this.live.state === 'open') this.live.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId: this.mapId, state: null });
    this.clear();
  }

  /** Changes what this tab shows; sent now, or at the next slot when the last went out just now. */
  set(change: Partial<PresenceState>): void {
    const next = { ...this.state, ...change };
    if (samePresence(next, this.state)) return;
    this.state = next;
    if (this.sendTimer) return;
    const wait = this.sentAt + this.minInterval - this.now();
    if (wait <= 0) return this.sendNow();
    this.sendTimer = setTimeout(() => this.sendNow(), wait);
  }

  get current(): PresenceState {
    return this.state;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Everyone, pointers included: changes up to 20 times a second per person. */
  getSnapshot = (): PresenceSnapshot => this.snapshot;

  /** Who is here and what they have open, without pointers: for the top bar and the forms. */
  getRoster = (): PresenceSnapshot => this.roster;

  private sendNow(): void {
    if (this.sendTimer) clearTimeout(this.sendTimer);
    this.sendTimer = null;
    if (this.live.state !== 'open') return;
    this.sentAt = this.now();
    this.live.send({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId: this.mapId, state: this.state });
  }

  private onMessage(message: ServerMessage): void {
    if (message.type !== 'presence' || message.mapId !== this.mapId) return;
    let self = this.snapshot.self;
    if (message.full) {
      this.peers.clear();
      self = message.self ?? null;
    }
    for (const peer of message.peers) if (peer.id !== self?.id) this.peers.set(peer.id, peer);
    for (const id of message.left) this.peers.delete(id);
    this.publish(self);
  }

  private clear(): void {
    if (this.peers.size === 0 && !this.snapshot.self) return;
    this.peers.clear();
    this.publish(null);
  }

  private publish(self: PresenceSelf | null): void {
    const peers = [...this.peers.values()];
    this.snapshot = { self, peers };
    const key = `${self?.id ?? ''};${peers.map((peer) => `${peer.id}|${peer.name}|${peer.state.selection ?? ''}|${peer.state.editing ?? ''}`).join(';')}`;
    if (key !== this.rosterKey) {
      this.rosterKey = key;
      this.roster = this.snapshot;
    }
    for (const listener of [...this.listeners]) listener();
  }
}
