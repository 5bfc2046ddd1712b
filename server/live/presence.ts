/**
 * Presence on the server: who is in which map now, relayed to the others in it. Ephemeral:
 * kept in memory, never in the event store; across server processes relayed through
 * PostgreSQL NOTIFY on {@link PRESENCE_CHANNEL}.
 *
 * - Who may: whoever may follow the map's live topic (`map:{id}`); the live hub gives the very
 *   check it uses for that topic, asked on join and again every {@link PresenceTimings.recheckMs}
 *   (a member removed meanwhile leaves).
 * - Throttled: one tab's changes go out at one per `minIntervalMs` on average (about 20 a second;
 *   a token bucket lets a jittered few through at once). A tab that sends more (a hostile one)
 *   is coalesced: the newest state waits for the next slot, so the others never get more than
 *   that, and never miss where it ended up.
 * - Leaving: at once when the socket closes or the tab says so; after `expiryMs` of silence
 *   otherwise (the client sends a keepalive every 2 s; the socket's ping every 30 s is far too
 *   slow to notice a lost network).
 * - Several processes: each relays its own peers' changes (and, every `keepaliveMs`, all of
 *   its peers again) to the others. A remote peer not heard of for `expiryMs` is dropped, so
 *   the peers of a process that died (no goodbye) go within a few seconds too. One NOTIFY at a
 *   time per process, so they arrive in the order they were sent.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { LIVE_PROTOCOL_VERSION, type ServerMessage } from '../../events/live-messages.js';
import {
  PRESENCE_EXPIRY_MS,
  PRESENCE_KEEPALIVE_MS,
  PRESENCE_MAPS_PER_SOCKET,
  PRESENCE_MIN_INTERVAL_MS,
  PresenceMapId,
  PresencePeer,
  samePresence,
  type PresenceState,
} from '../../events/presence.js';
import type { Principal } from '../../events/principal.js';
import type { Database } from '../../ports/database.js';

export const PRESENCE_CHANNEL = 'mapfold_presence';

/**
 * A tab's changes may come a little bunched (timers and networks jitter) without waiting: up to
 * this many at once, as long as they average one per `minIntervalMs`.
 */
const BURST = 3;

/** How long a refused join is answered without asking again (a member added meanwhile waits this long at most). */
const REFUSAL_MEMORY_MS = 10_000;

/** NOTIFY payloads must stay under 8000 bytes; a relay of many peers goes out in several. */
const MAX_RELAY_BYTES = 7_000;

/** What one process tells the others (validated: another process may run other code). */
const Relay = z.discriminatedUnion('kind', [
  /** These peers of `from` are in the map as given (new, changed, or still there); `left` are gone. */
  z.object({ kind: z.literal('peers'), from: z.string(), mapId: PresenceMapId, peers: z.array(PresencePeer), left: z.array(z.string()) }),
  /** `from` has a first peer in the map: the others send theirs now rather than at their next keepalive. */
  z.object({ kind: z.literal('want'), from: z.string(), mapId: PresenceMapId }),
  /** `from` is stopping: its peers have all left. */
  z.object({ kind: z.literal('bye'), from: z.string() }),
]);
type Relay = z.infer<typeof Relay>;
type PeersRelay = Extract<Relay, { kind: 'peers' }>;

export interface PresenceTimings {
  minIntervalMs: number;
  keepaliveMs: number;
  expiryMs: number;
  /** How often each peer's access to its map is checked again. */
  recheckMs: number;
}

const DEFAULT_TIMINGS: PresenceTimings = {
  minIntervalMs: PRESENCE_MIN_INTERVAL_MS,
  keepaliveMs: PRESENCE_KEEPALIVE_MS,
  expiryMs: PRESENCE_EXPIRY_MS,
  recheckMs: 15_000,
};

export interface PresenceOptions {
  db: Database;
  logger: { warn(details: object, message: string): void };
  /** Whether the principal may follow the map live: the hub's own check for `map:{id}`. */
  mayView(principal: Principal, mapId: string): Promise<boolean>;
  timings?: Partial<PresenceTimings>;
  /** Relay through NOTIFY (default: on PostgreSQL, where other processes may share the database). */
  relay?: boolean;
  now?: () => number;
}

/** A tab in a map, on this process. */
interface LocalPeer {
  peer: PresencePeer;
  principal: Principal;
  member: object;
  send: (text: string) => void;
  seenAt: number;
  /** Its token bucket: changes it may send now (one more every `minIntervalMs`, at most {@link BURST}). */
  tokens: number;
  /** When the bucket was last filled up to now. */
  filledAt: number;
  /** A change that came too soon after the last, waiting for its slot. */
  pending: PresenceState | null;
  timer: NodeJS.Timeout | null;
}

interface RemotePeer {
  peer: PresencePeer;
  from: string;
  expiresAt: number;
}

type PresenceMessage = Extract<ServerMessage, { type: 'presence' }>;

function displayName(principal: Principal): string {
  const name = principal.displayName.trim() || principal.email.split('@')[0]?.trim() || 'Someone';
  return name.slice(0, 200);
}

export class PresenceHub {
  /** This process, as the relays name it. */
  readonly processId = randomBytes(9).toString('base64url');
  private readonly timings: PresenceTimings;
  private readonly relayOn: boolean;
  private readonly now: () => number;
  /** mapId → peer id → the tabs here. */
  private readonly local = new Map<string, Map<string, LocalPeer>>();
  /** socket → mapId → its peer. */
  private readonly byMember = new Map<object, Map<string, LocalPeer>>();
  /** mapId → peer id → the tabs of other processes. */
  private readonly remote = new Map<string, Map<string, RemotePeer>>();
  /** Sockets gone while their join was being checked. */
  private readonly gone = new WeakSet<object>();
  /**
   * socket → mapId → until when a refused join is not asked again: a tab that keeps sending
   * (its keepalive, a hostile loop) costs no query each time, and is told once.
   */
  private readonly refused = new WeakMap<object, Map<string, number>>();
  private readonly outbox: Relay[] = [];
  private flushing: Promise<void> | null = null;
  private timers: NodeJS.Timeout[] = [];
  private unlisten: (() => Promise<void>) | null = null;
  private stopped = false;

  constructor(private readonly options: PresenceOptions) {
    this.timings = { ...DEFAULT_TIMINGS, ...options.timings };
    this.relayOn = options.relay ?? options.db.kind === 'postgres';
    this.now = options.now ?? Date.now;
  }

  async start(): Promise<void> {
    if (this.relayOn) this.unlisten = await this.options.db.listen(PRESENCE_CHANNEL, (payload) => this.onRelay(payload));
    const every = (ms: number, work: () => void) => {
      const timer = setInterval(work, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(Math.min(1_000, this.timings.expiryMs / 4), () => this.sweep());
    if (this.relayOn) every(this.timings.keepaliveMs, () => this.relayAll());
    every(this.timings.recheckMs, () => void this.recheckAccess());
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.stopped = true;
    for (const peers of this.local.values()) for (const peer of peers.values()) if (peer.timer) clearTimeout(peer.timer);
    if (this.relayOn) {
      this.publish({ kind: 'bye', from: this.processId });
      await this.flushing;
    }
    await this.unlisten?.();
    this.unlisten = null;
  }

  /** Peers in a map as this process knows them (its own and the relayed ones). */
  peersOf(mapId: string): PresencePeer[] {
    return [...(this.local.get(mapId)?.values() ?? [])].map((local) => local.peer).concat([...(this.remote.get(mapId)?.values() ?? [])].map((remote) => remote.peer));
  }

  /** A socket's `presence` message: join, update (or keepalive), or leave with `state: null`. */
  async receive(member: object, principal: Principal, message: { mapId: string; state: PresenceState | null }, send: (text: string) => void): Promise<void> {
    const { mapId, state } = message;
    const joined = this.byMember.get(member)?.get(mapId);
    if (state === null) {
      if (joined) this.remove(joined);
      return;
    }
    if (joined && joined.principal.uid === principal.uid) return this.update(joined, state);
    if (joined) this.remove(joined);
    if ((this.byMember.get(member)?.size ?? 0) >= PRESENCE_MAPS_PER_SOCKET) {
      return send(this.error('resource-exhausted', `Present in at most ${PRESENCE_MAPS_PER_SOCKET} maps per connection.`));
    }
    const refusedUntil = this.refused.get(member)?.get(mapId);
    if (refusedUntil !== undefined && refusedUntil > this.now()) return;
    if (!(await this.options.mayView(principal, mapId))) {
      let mine = this.refused.get(member);
      if (!mine) this.refused.set(member, (mine = new Map()));
      if (mine.size >= 100) mine.clear();
      mine.set(mapId, this.now() + REFUSAL_MEMORY_MS);
      return send(this.error('permission-denied', 'You do not have access to this map.'));
    }
    this.refused.get(member)?.delete(mapId);
    if (this.gone.has(member)) return;
    const now = this.now();
    const local: LocalPeer = {
      peer: { id: randomBytes(9).toString('base64url'), uid: principal.uid, name: displayName(principal), state },
      principal,
      member,
      send,
      seenAt: now,
      tokens: BURST,
      filledAt: now,
      pending: null,
      timer: null,
    };
    let inMap = this.local.get(mapId);
    const first = !inMap;
    if (!inMap) this.local.set(mapId, (inMap = new Map()));
    const others = this.peersOf(mapId);
    inMap.set(local.peer.id, local);
    let mine = this.byMember.get(member);
    if (!mine) this.byMember.set(member, (mine = new Map()));
    mine.set(mapId, local);
    const { state: _state, ...self } = local.peer;
    send(JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, full: true, self, peers: others, left: [] } satisfies PresenceMessage));
    this.changed(mapId, [local.peer], [], local.peer.id);
    if (first && this.relayOn) this.publish({ kind: 'want', from: this.processId, mapId });
  }

  /** The socket closed: its peers leave at once. */
  drop(member: object): void {
    this.gone.add(member);
    for (const local of [...(this.byMember.get(member)?.values() ?? [])]) this.remove(local);
  }

  private update(local: LocalPeer, state: PresenceState): void {
    local.seenAt = this.now();
    if (local.timer) {
      // A change already waits for its slot: this newer one takes its place.
      local.pending = state;
      return;
    }
    if (samePresence(local.peer.state, state)) return;
    const interval = this.timings.minIntervalMs;
    local.tokens = Math.min(BURST, local.tokens + (local.seenAt - local.filledAt) / interval);
    local.filledAt = local.seenAt;
    if (local.tokens >= 1) {
      local.tokens -= 1;
      return this.apply(local, state);
    }
    const wait = Math.ceil((1 - local.tokens) * interval);
    local.pending = state;
    local.timer = setTimeout(() => {
      local.timer = null;
      const pending = local.pending;
      local.pending = null;
      // The slot waited for is spent on this change.
      const now = this.now();
      local.tokens = Math.max(0, Math.min(BURST, local.tokens + (now - local.filledAt) / interval) - 1);
      local.filledAt = now;
      if (pending && !samePresence(local.peer.state, pending)) this.apply(local, pending);
    }, wait);
  }

  private apply(local: LocalPeer, state: PresenceState): void {
    local.peer = { ...local.peer, state };
    const mapId = this.mapOf(local);
    if (mapId) this.changed(mapId, [local.peer], [], local.peer.id);
  }

  private mapOf(local: LocalPeer): string | null {
    for (const [mapId, peer] of this.byMember.get(local.member) ?? []) if (peer === local) return mapId;
    return null;
  }

  private remove(local: LocalPeer): void {
    if (local.timer) clearTimeout(local.timer);
    local.timer = null;
    const mapId = this.mapOf(local);
    if (!mapId) return;
    this.byMember.get(local.member)?.delete(mapId);
    if (this.byMember.get(local.member)?.size === 0) this.byMember.delete(local.member);
    const inMap = this.local.get(mapId);
    inMap?.delete(local.peer.id);
    if (inMap?.size === 0) this.local.delete(mapId);
    this.changed(mapId, [], [local.peer.id], local.peer.id);
  }

  /** A change of this process's peers: to the map's other tabs here, and to the other processes. */
  private changed(mapId: string, peers: PresencePeer[], left: string[], except: string | null): void {
    this.deliver(mapId, peers, left, except);
    if (this.relayOn && !this.stopped) this.publish({ kind: 'peers', from: this.processId, mapId, peers, left });
  }

  /** One serialisation, sent to every tab in the map here but `except`. */
  private deliver(mapId: string, peers: PresencePeer[], left: string[], except: string | null): void {
    const inMap = this.local.get(mapId);
    if (!inMap) return;
    let text: string | null = null;
    for (const local of inMap.values()) {
      if (local.peer.id === except) continue;
      text ??= JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'presence', mapId, full: false, peers, left } satisfies PresenceMessage);
      local.send(text);
    }
  }

  private error(code: string, message: string): string {
    return JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'error', code, message } satisfies ServerMessage);
  }

  /** Silent tabs leave; relayed peers not heard of lately (their process died) too. */
  private sweep(): void {
    const now = this.now();
    for (const inMap of [...this.local.values()]) {
      for (const local of [...inMap.values()]) if (now - local.seenAt > this.timings.expiryMs) this.remove(local);
    }
    for (const [mapId, inMap] of [...this.remote]) {
      const left: string[] = [];
      for (const [id, remote] of inMap) {
        if (remote.expiresAt >= now) continue;
        inMap.delete(id);
        left.push(id);
      }
      if (inMap.size === 0) this.remote.delete(mapId);
      if (left.length > 0) this.deliver(mapId, [], left, null);
    }
  }

  /** Access to these maps changed (their members): their peers here are checked now, not on the timer. */
  recheckMaps(mapIds: readonly string[]): Promise<void> {
    return this.recheckAccess({ mapIds });
  }

  /**
   * Peers whose access ended (removed from the map, the map deleted) leave, and their tab is
   * told. Runs every `recheckMs`; call it at once when access changed (`uid`, `mapIds`: only
   * that person's, those maps' peers).
   */
  async recheckAccess(only: { uid?: string; mapIds?: readonly string[] } = {}): Promise<void> {
    for (const [mapId, inMap] of [...this.local]) {
      if (only.mapIds && !only.mapIds.includes(mapId)) continue;
      for (const local of [...inMap.values()]) {
        if (only.uid !== undefined && only.uid !== local.peer.uid) continue;
        const allowed = await this.options.mayView(local.principal, mapId).catch(() => true);
        if (allowed || this.mapOf(local) !== mapId) continue;
        this.remove(local);
        let refused = this.refused.get(local.member);
        if (!refused) this.refused.set(local.member, (refused = new Map()));
        refused.set(mapId, this.now() + REFUSAL_MEMORY_MS);
        local.send(this.error('permission-denied', 'You do not have access to this map.'));
      }
    }
  }

  /** Every peer of this process again, so the others keep them (and learn them after a restart). */
  private relayAll(mapIds: Iterable<string> = this.local.keys()): void {
    for (const mapId of mapIds) {
      const inMap = this.local.get(mapId);
      if (inMap?.size) this.publish({ kind: 'peers', from: this.processId, mapId, peers: [...inMap.values()].map((local) => local.peer), left: [] });
    }
  }

  private onRelay(payload: string): void {
    let relay: Relay;
    try {
      relay = Relay.parse(JSON.parse(payload));
    } catch {
      return;
    }
    if (relay.from === this.processId) return;
    switch (relay.kind) {
      case 'want':
        return this.relayAll([relay.mapId]);
      case 'bye': {
        for (const [mapId, inMap] of [...this.remote]) {
          const left = [...inMap.values()].filter((remote) => remote.from === relay.from).map((remote) => remote.peer.id);
          for (const id of left) inMap.delete(id);
          if (inMap.size === 0) this.remote.delete(mapId);
          if (left.length > 0) this.deliver(mapId, [], left, null);
        }
        return;
      }
      case 'peers': {
        const expiresAt = this.now() + this.timings.expiryMs;
        let inMap = this.remote.get(relay.mapId);
        if (!inMap) this.remote.set(relay.mapId, (inMap = new Map()));
        const changed: PresencePeer[] = [];
        for (const peer of relay.peers) {
          const known = inMap.get(peer.id);
          inMap.set(peer.id, { peer, from: relay.from, expiresAt });
          if (!known || known.peer.name !== peer.name || !samePresence(known.peer.state, peer.state)) changed.push(peer);
        }
        const left = relay.left.filter((id) => inMap.delete(id));
        if (inMap.size === 0) this.remote.delete(relay.mapId);
        if (changed.length > 0 || left.length > 0) this.deliver(relay.mapId, changed, left, null);
        return;
      }
      default: {
        const unreachable: never = relay;
        return unreachable;
      }
    }
  }

  private publish(relay: Relay): void {
    this.outbox.push(relay);
    this.flushing ??= this.flush().finally(() => {
      this.flushing = null;
    });
  }

  /** One NOTIFY at a time, so they arrive in order; what piles up meanwhile goes out merged. */
  private async flush(): Promise<void> {
    while (this.outbox.length > 0) {
      for (const payload of mergeRelays(this.outbox.splice(0))) {
        try {
          await this.options.db.query('SELECT pg_notify($1, $2)', [PRESENCE_CHANNEL, payload]);
        } catch (error) {
          this.options.logger.warn({ err: error }, 'presence relay failed');
        }
      }
    }
  }
}

/**
 * Relays waiting together as few payloads as fit: per map, each peer's newest state and who
 * left, in payloads under {@link MAX_RELAY_BYTES}.
 */
export function mergeRelays(relays: Relay[]): string[] {
  const payloads: string[] = [];
  const maps = new Map<string, { from: string; peers: Map<string, PresencePeer>; left: Set<string> }>();
  for (const relay of relays) {
    if (relay.kind !== 'peers') {
      payloads.push(JSON.stringify(relay));
      continue;
    }
    let merged = maps.get(relay.mapId);
    if (!merged) maps.set(relay.mapId, (merged = { from: relay.from, peers: new Map(), left: new Set() }));
    for (const peer of relay.peers) merged.peers.set(peer.id, peer);
    for (const id of relay.left) {
      merged.peers.delete(id);
      merged.left.add(id);
    }
  }
  for (const [mapId, merged] of maps) {
    let chunk: PeersRelay = { kind: 'peers', from: merged.from, mapId, peers: [], left: [] };
    const size = (relay: PeersRelay) => Buffer.byteLength(JSON.stringify(relay));
    let bytes = size(chunk);
    const push = () => {
      payloads.push(JSON.stringify(chunk));
      chunk = { ...chunk, peers: [], left: [] };
      bytes = size(chunk);
    };
    for (const peer of merged.peers.values()) {
      const add = Buffer.byteLength(JSON.stringify(peer)) + 1;
      if (bytes + add > MAX_RELAY_BYTES && chunk.peers.length + chunk.left.length > 0) push();
      chunk.peers.push(peer);
      bytes += add;
    }
    for (const id of merged.left) {
      const add = Buffer.byteLength(JSON.stringify(id)) + 1;
      if (bytes + add > MAX_RELAY_BYTES && chunk.peers.length + chunk.left.length > 0) push();
      chunk.left.push(id);
      bytes += add;
    }
    if (chunk.peers.length + chunk.left.length > 0) push();
  }
  return payloads;
}
