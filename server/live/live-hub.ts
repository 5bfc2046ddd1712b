/**
 * The live hub: the server end of `/api/live`. It keeps each socket's topic subscriptions. Map
 * topics are fed from the event log itself: the hub follows the store's map streams (one
 * subscription per process) and sends each map's new events, as they are recorded, in one
 * message to the topic's subscribers; it reads a stream only to fill a gap or bring a new
 * subscriber up to date. Nothing waits for a projection's transaction and notice, and each
 * change goes out once (issue 26). The other topics get a fresh snapshot on the projections'
 * change notices (from any process sharing the database); the members projection's notice makes
 * it check a map's subscribers again. It LISTENs for ended sessions too (logout, password
 * change, from any process), and closes their sockets at once.
 *
 * A map topic's snapshot (a new subscriber's starting point) is kept per map and revision, so
 * subscribing again and again reads and serialises a big map once; and each socket's subscribes
 * are rate-limited (server/live/subscribe-limits.ts), so one socket cannot hold others up.
 */
import type { WebSocket } from 'ws';
import {
  CLOSE_OUTDATED_CLIENT,
  CLOSE_UNAUTHENTICATED,
  LIVE_PROTOCOL_VERSION,
  MAX_CATCH_UP_EVENTS,
  OUTDATED_CLIENT_REASON,
  ClientMessage,
  type LiveMapEvent,
  type ServerMessage,
} from '../../events/live-messages.js';
import { MAP_EVENT_TYPES, MapEvent } from '../../events/map.js';
import { SHARING_EVENT_TYPES } from '../../events/map-sharing.js';
import { formatPosition, START, type Position } from '../../events/position.js';
import { mapIdFromStream, STREAM_PREFIXES, streams } from '../../events/streams.js';
import type { EventStore, RecordedEvent, Subscription } from '../../ports/event-store.js';
import type { Principal } from '../../events/principal.js';
import { unsafeTextIssue } from '../../events/safe-text.js';
import { LIVE_CHANNEL, LiveNotice } from '../../projections/live-notices.js';
import { SESSIONS_CHANNEL, SessionsEnded } from '../auth/session-notices.js';
import { runInBackground } from '../../ports/background-work.js';
import type { Database } from '../../ports/database.js';
import { PresenceHub, type PresenceTimings } from './presence.js';
import { MapSnapshots, type SnapshotMessage } from './map-snapshots.js';
import { SubscribeLimit } from './subscribe-limits.js';
import { accessTopic, type TopicSnapshot } from './topic-access.js';
import { parseTopic, topics } from '../../events/topics.js';
import type { MapRole } from '../../events/map-access.js';
import { MAP_MEMBERS_PROJECTION } from '../../projections/map-members.js';

const MAX_TOPICS_PER_SOCKET = 100;
const HEARTBEAT_MS = 30_000;

/** How a socket proves, and keeps proving, who is on the other end. */
export interface LiveAuthenticator {
  /** Looks again at the session the socket opened with (cookie); null once it has ended. */
  recheck?: () => Promise<Principal | null>;
  /** Verifies a token sent in an `auth` message (Clerk). */
  verifyToken?: (token: string) => Promise<{ principal: Principal; expiresAt: Date } | null>;
}

interface Client {
  socket: WebSocket;
  principal: Principal | null;
  /** When the token the socket signed in with stops being valid (token sign-in only). */
  expiresAt: Date | null;
  auth: LiveAuthenticator;
  topics: Map<string, TopicFeed>;
  /** The role in the topic's map each map topic was granted with (an `access` message says when it changes). */
  roles: Map<string, MapRole | null>;
  alive: boolean;
  /** The message being handled; the next one waits for it. */
  queue: Promise<void>;
  /** Messages received and not handled yet. */
  queued: number;
  /** A subscribe is waiting for its turn (the rate limit): what arrives meanwhile waits behind it. */
  throttled: boolean;
  /** How fast it may subscribe. */
  limit: SubscribeLimit;
}

/** How a subscribed topic is read: a snapshot, and for a map its stream. */
interface TopicFeed {
  load: () => Promise<TopicSnapshot>;
  mapId: string | undefined;
}

/** A gap's events are read this many at a time. */
const PUSH_BATCH = 500;
/** A socket with more messages waiting than this behind a rate-limited subscribe is closed. */
const MAX_QUEUED_MESSAGES = 200;
/** Close code of a socket that sends faster than it may (policy violation). */
const CLOSE_POLICY_VIOLATION = 1008;
/** The first wait before following the log again after the subscription failed; doubles to 30 s. */
const FOLLOW_RETRY_MS = 500;

/**
 * A recorded map event as the `map:{id}` topic carries it (who made it and when, from its
 * metadata). Sharing events go out as `event: null` (they only move the revision): every
 * follower of the map gets the topic, viewers too, and invitees' addresses and the hashes of
 * invitation tokens and view-link keys are not theirs to see; the sharing UI reads members
 * from their own route and `access` messages.
 */
export function liveMapEvent(recorded: RecordedEvent): LiveMapEvent {
  const shown = MAP_EVENT_TYPES.has(recorded.type) && !SHARING_EVENT_TYPES.has(recorded.type);
  const parsed = shown ? MapEvent.safeParse({ type: recorded.type, data: recorded.data }) : null;
  const { userId, userName, at } = recorded.metadata;
  return {
    revision: recorded.revision.toString(),
    position: formatPosition(recorded.position),
    at,
    by: userId ? { uid: userId, name: userName?.trim() || 'Someone' } : null,
    event: parsed?.success ? parsed.data : null,
  };
}

/** A token-authenticated socket must send its first token within this time. */
const AUTH_TIMEOUT_MS = 10_000;
/** Grace after a token's expiry for its fresh successor to arrive. */
const TOKEN_GRACE_MS = 5_000;
/**
 * The close reason (with {@link CLOSE_UNAUTHENTICATED}) of a socket whose session ended. The
 * client then asks who is signed in, finds nobody, and stops: it does not reconnect.
 */
export const SESSION_ENDED = 'Session ended';

interface HubLogger {
  warn(details: object, message: string): void;
}

export class LiveHub {
  private readonly clients = new Set<Client>();
  /** topic -> subscribed clients */
  private readonly subscribers = new Map<string, Set<Client>>();
  /** Topics being refreshed, and whether another change came in meanwhile. */
  private readonly refreshing = new Map<string, boolean>();
  /** Map topic -> the last stream revision pushed to its subscribers (this process). */
  private readonly pushed = new Map<string, bigint>();
  private unlisten: (() => Promise<void>) | null = null;
  private unlistenSessions: (() => Promise<void>) | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** The store's map streams, followed from where the log was at start. */
  private following: Subscription | null = null;
  /** The position of the last map event the hub saw: following starts again from there. */
  private followedTo: Position = START;
  private followFailures = 0;
  private followTimer: NodeJS.Timeout | null = null;
  /** Stops the store telling of appended streams. */
  private stopHearing: (() => void) | null = null;
  private stopped = false;
  /** Map snapshots kept per map and revision (subscribing again costs no read). */
  private readonly snapshots: MapSnapshots;

  private recheckTimer: NodeJS.Timeout | null = null;
  /** Who is in which map (server/live/presence.ts): whoever may follow `map:{id}` may be present in it. */
  readonly presence: PresenceHub;

  constructor(
    private readonly db: Database,
    private readonly logger: HubLogger,
    /** The event log map topics are fed from. */
    private readonly store: Pick<EventStore, 'readStream' | 'subscribeToAll' | 'onStreamsAppended'>,
    /** How often each socket's session or token is checked again. */
    private readonly recheckMs = 30_000,
    presenceTimings?: Partial<PresenceTimings>,
  ) {
    this.snapshots = new MapSnapshots(db);
    const mayView = async (principal: Principal, mapId: string) => (await accessTopic(this.db, principal, topics.map(mapId))).ok;
    this.presence = new PresenceHub({ db, logger, mayView, ...(presenceTimings ? { timings: presenceTimings } : {}) });
  }

  async start(): Promise<void> {
    this.followedTo = await this.logHead();
    this.follow();
    this.stopHearing = this.store.onStreamsAppended?.((streams) => this.onStreamsAppended(streams)) ?? null;
    this.unlisten = await this.db.listen(LIVE_CHANNEL, (payload) => this.onNotice(payload));
    this.unlistenSessions = await this.db.listen(SESSIONS_CHANNEL, (payload) => void this.onSessionsEnded(payload));
    await this.presence.start();
    // Sockets that stop answering pings (a laptop lid closed) are dropped, not kept forever.
    this.heartbeat = setInterval(() => {
      for (const client of this.clients) {
        if (!client.alive) {
          client.socket.terminate();
          continue;
        }
        client.alive = false;
        client.socket.ping();
      }
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
    this.recheckTimer = setInterval(() => void this.recheckAll(), this.recheckMs);
    this.recheckTimer.unref();
  }

  /**
   * Closes sockets whose token expired, or whose session ended without a notice reaching this
   * process (it expired; the notice was sent while this process's LISTEN connection was down).
   */
  private async recheckAll(): Promise<void> {
    const now = Date.now();
    for (const client of [...this.clients]) {
      if (!client.principal) continue;
      if (client.expiresAt && now > client.expiresAt.getTime() + TOKEN_GRACE_MS) {
        this.unauthenticated(client);
        continue;
      }
      await this.recheck(client);
    }
  }

  /** Looks again at a cookie socket's session: closes the socket if it ended, else refreshes the principal. */
  private async recheck(client: Client): Promise<void> {
    const before = client.principal;
    if (!before || !client.auth.recheck) return;
    const principal = await client.auth.recheck().catch(() => before);
    if (!this.clients.has(client)) return;
    if (!principal || principal.uid !== before.uid) this.unauthenticated(client, SESSION_ENDED);
    else client.principal = principal;
  }

  /** Sessions of an account ended somewhere: its sockets here are checked now, not on the timer. */
  private async onSessionsEnded(payload: string): Promise<void> {
    let notice: SessionsEnded;
    try {
      notice = SessionsEnded.parse(JSON.parse(payload));
    } catch {
      return;
    }
    const affected = [...this.clients].filter((client) => client.principal?.uid === notice.uid);
    await Promise.all(
      affected.map(async (client) => {
        if (notice.everySession) this.unauthenticated(client, SESSION_ENDED);
        else await this.recheck(client);
      }),
    ).catch((error: unknown) => this.logger.warn({ err: error }, 'closing ended sessions failed'));
  }

  private unauthenticated(client: Client, reason = 'Unauthenticated'): void {
    client.socket.close(CLOSE_UNAUTHENTICATED, reason);
    this.detach(client);
  }

  /**
   * Where to start following map streams: the furthest projection's checkpoint, at or close to
   * the end of the log (the store has no cheaper way to say). Nobody is subscribed yet, so what
   * lies before is not needed, and whatever lies after is only read through once.
   */
  private async logHead(): Promise<Position> {
    try {
      const { rows } = await this.db.query<{ commit_position: string; prepare_position: string }>(
        'SELECT commit_position::text, prepare_position::text FROM projection_checkpoints ORDER BY commit_position DESC, prepare_position DESC LIMIT 1',
      );
      return rows[0] ? { commit: BigInt(rows[0].commit_position), prepare: BigInt(rows[0].prepare_position) } : START;
    } catch {
      // No checkpoints yet (a new database): the log is as good as empty.
      return START;
    }
  }

  /** Follows the store's map streams; on a failure, again from the last event seen, after a growing pause. */
  private follow(): void {
    if (this.stopped) return;
    // The service's own work: on the embedded database it takes turns with people's requests (ports/background-work.ts).
    const subscription = runInBackground(() => this.store.subscribeToAll(
      { after: this.followedTo, filter: { streamPrefixes: [STREAM_PREFIXES[0]] }, batchSize: PUSH_BATCH },
      {
        onEvents: async (events) => {
          this.followFailures = 0;
          this.onMapEvents(events);
          this.followedTo = events.at(-1)!.position;
        },
        onError: (error) => {
          if (this.stopped || this.following !== subscription) return;
          this.following = null;
          const delayMs = Math.min(30_000, FOLLOW_RETRY_MS * 2 ** this.followFailures++);
          this.logger.warn({ err: error, delayMs }, 'following the map streams failed; following again');
          this.followTimer = setTimeout(() => this.follow(), delayMs);
          this.followTimer.unref();
        },
      },
    ));
    this.following = subscription;
  }

  /**
   * Streams just appended to (the store's hint, this process's appends at once and others'
   * through the database's notices): a map topic with subscribers here reads its stream after
   * the last revision pushed, and sends what is new. The log shows an event only once every
   * older transaction of the whole database server has ended (a projection's of the edit before,
   * another database's), which put tens to hundreds of ms on an edit's way to the map's other
   * editors; a stream's events are readable in order as soon as they are committed (appends to
   * one stream take turns). The log's copy of them comes later and is not pushed again.
   */
  private onStreamsAppended(streams: readonly string[]): void {
    for (const stream of streams) {
      const mapId = mapIdFromStream(stream);
      if (mapId === null) continue;
      const topic = topics.map(mapId);
      if (this.subscribers.get(topic)?.size && this.pushed.has(topic)) void this.refresh(topic);
    }
  }

  /** New map events from the log: each topic with subscribers here gets its own, in one message. */
  private onMapEvents(events: readonly RecordedEvent[]): void {
    const byTopic = new Map<string, RecordedEvent[]>();
    for (const recorded of events) {
      const mapId = mapIdFromStream(recorded.stream);
      if (mapId === null) continue;
      const topic = topics.map(mapId);
      if (!this.subscribers.get(topic)?.size) continue;
      let list = byTopic.get(topic);
      if (!list) byTopic.set(topic, (list = []));
      list.push(recorded);
    }
    for (const [topic, list] of byTopic) this.pushFollowed(topic, list);
  }

  /**
   * Sends a topic the events the log just gave, when they follow the last revision pushed;
   * otherwise (a gap, or a read of the stream under way) the stream is read from that revision.
   */
  private pushFollowed(topic: string, events: readonly RecordedEvent[]): void {
    const last = this.pushed.get(topic);
    // No cursor yet: the first subscriber is being caught up, and reads the stream after.
    if (last === undefined) return;
    if (this.refreshing.has(topic)) {
      this.refreshing.set(topic, true);
      return;
    }
    const fresh = events.filter((event) => event.revision > last);
    if (fresh.length === 0) return;
    const consecutive = fresh.every((event, i) => event.revision === last + 1n + BigInt(i));
    if (!consecutive) return void this.refresh(topic);
    this.pushed.set(topic, fresh.at(-1)!.revision);
    this.broadcast(topic, JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'events', topic, events: fresh.map(liveMapEvent) } satisfies ServerMessage));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopHearing?.();
    if (this.followTimer) clearTimeout(this.followTimer);
    const following = this.following;
    this.following = null;
    await following?.stop();
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.recheckTimer) clearInterval(this.recheckTimer);
    await this.unlisten?.();
    await this.unlistenSessions?.();
    await this.presence.stop();
    // 1012 "service restart": clients reconnect (to this process's successor or a sibling).
    for (const client of this.clients) {
      client.socket.close(1012, 'Server restarting');
      // A peer that never answers the close handshake must not hold the shutdown up.
      setTimeout(() => client.socket.terminate(), 1_000).unref();
    }
  }

  get connectionCount(): number {
    return this.clients.size;
  }

  /**
   * Takes a new socket. With a principal (cookie session) it is welcomed at once; without one
   * it must sign in with an `auth` message within {@link AUTH_TIMEOUT_MS}.
   */
  attach(socket: WebSocket, principal: Principal | null, auth: LiveAuthenticator): void {
    const client: Client = {
      socket,
      principal,
      expiresAt: null,
      auth,
      topics: new Map(),
      roles: new Map(),
      alive: true,
      queue: Promise.resolve(),
      queued: 0,
      throttled: false,
      limit: new SubscribeLimit(),
    };
    this.clients.add(client);
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('message', (raw, isBinary) => {
      if (isBinary) return this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'error', code: 'invalid-argument', message: 'Send text messages.' });
      // One message at a time per socket, in the order sent: an `auth` is settled before the
      // `subscribe` behind it, an unsubscribe never overtakes its subscribe.
      const text = raw.toString();
      // Messages wait behind a rate-limited subscribe: a socket that keeps sending regardless is cut off.
      if (++client.queued > MAX_QUEUED_MESSAGES && client.throttled) return this.flooding(client);
      client.queue = client.queue
        .then(() => this.onMessage(client, text))
        .finally(() => client.queued--)
        .catch((error: unknown) => {
          this.logger.warn({ err: error }, 'live message failed');
          this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'error', code: 'internal', message: 'Internal error.' });
        });
    });
    socket.on('close', () => this.detach(client));
    socket.on('error', () => this.detach(client));
    if (principal) {
      this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'welcome', uid: principal.uid });
    } else {
      setTimeout(() => {
        if (!client.principal && this.clients.has(client)) this.unauthenticated(client);
      }, AUTH_TIMEOUT_MS).unref();
    }
  }

  private async signIn(client: Client, token: string): Promise<void> {
    const verified = client.auth.verifyToken ? await client.auth.verifyToken(token) : null;
    if (!verified || (client.principal && client.principal.uid !== verified.principal.uid)) {
      return this.unauthenticated(client);
    }
    const first = !client.principal;
    client.principal = verified.principal;
    client.expiresAt = verified.expiresAt;
    if (first) this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'welcome', uid: verified.principal.uid });
  }

  private unsubscribe(client: Client, topic: string): void {
    client.topics.delete(topic);
    client.roles.delete(topic);
    this.leave(client, topic);
  }

  /**
   * A map's members changed (the members projection's notice): its topics' subscribers here
   * are checked again at once. One who may no longer follow a topic is told and unsubscribed;
   * one whose role changed gets an `access` message; presence drops those who left.
   */
  private async recheckMapAccess(mapIds: readonly string[]): Promise<void> {
    for (const mapId of mapIds) {
      for (const topic of [topics.map(mapId), topics.comments(mapId)]) {
        for (const client of [...(this.subscribers.get(topic) ?? [])]) {
          if (!client.principal) continue;
          const access = await accessTopic(this.db, client.principal, topic);
          if (!client.topics.has(topic)) continue;
          if (!access.ok) {
            this.unsubscribe(client, topic);
            const message = access.error.code === 'permission-denied' ? 'You no longer have access to this map.' : access.error.message;
            this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'error', topic, code: access.error.code, message });
            continue;
          }
          if (access.role !== undefined && client.roles.has(topic) && client.roles.get(topic) !== access.role) {
            client.roles.set(topic, access.role);
            this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'access', topic, role: access.role });
          }
        }
      }
    }
    await this.presence.recheckMaps(mapIds);
  }

  private detach(client: Client): void {
    this.presence.drop(client);
    this.clients.delete(client);
    for (const topic of client.topics.keys()) this.leave(client, topic);
    client.topics.clear();
  }

  /** Takes the client off a topic; the topic's last subscriber gone, its push cursor goes too. */
  private leave(client: Client, topic: string): void {
    const set = this.subscribers.get(topic);
    set?.delete(client);
    if (set && set.size === 0) {
      this.subscribers.delete(topic);
      this.pushed.delete(topic);
    }
  }

  /** A socket that keeps sending while its subscribes wait their turn: closed. */
  private flooding(client: Client): void {
    client.socket.close(CLOSE_POLICY_VIOLATION, 'Too many messages');
    this.detach(client);
  }

  /** A client of another protocol version: told to reload, and closed. */
  private outdated(client: Client): void {
    client.socket.close(CLOSE_OUTDATED_CLIENT, OUTDATED_CLIENT_REASON);
    this.detach(client);
  }

  private send(client: Client, message: ServerMessage): void {
    if (client.socket.readyState === client.socket.OPEN) client.socket.send(JSON.stringify(message));
  }

  private async onMessage(client: Client, text: string): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'error', code: 'invalid-argument', message: 'Message is not valid JSON.' });
    }
    // A message of another version (a page loaded before an update, which got through the open):
    // it cannot be understood, and the page must be reloaded.
    if (typeof json === 'object' && json !== null && 'v' in json && json.v !== LIVE_PROTOCOL_VERSION) return this.outdated(client);
    const parsed = ClientMessage.safeParse(json);
    if (!parsed.success) {
      return this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'error', code: 'invalid-argument', message: unsafeTextIssue(parsed.error) ?? 'Unknown message.' });
    }
    const message = parsed.data;
    if (message.type === 'auth') return this.signIn(client, message.token);
    const principal = client.principal;
    if (!principal) {
      return this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'error', code: 'unauthenticated', message: 'Sign in first.' });
    }
    switch (message.type) {
      case 'ping':
        return this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'pong' });
      case 'unsubscribe':
        return this.unsubscribe(client, message.topic);
      case 'presence':
        return this.presence.receive(client, principal, message, (text) => client.socket.readyState === client.socket.OPEN && client.socket.send(text));
      case 'subscribe': {
        // Rate-limited per socket: a re-subscribe waits its turn, holding up only its own socket.
        const waitMs = client.limit.take(message.since === undefined ? 'snapshot' : 'since');
        if (waitMs > 0) {
          if (client.queued > MAX_QUEUED_MESSAGES) return this.flooding(client);
          client.throttled = true;
          await new Promise((resolve) => setTimeout(resolve, waitMs));
          client.throttled = false;
        }
        if (!this.clients.has(client)) return;
        if (!client.topics.has(message.topic) && client.topics.size >= MAX_TOPICS_PER_SOCKET) {
          return this.send(client, {
            v: LIVE_PROTOCOL_VERSION,
            type: 'error',
            topic: message.topic,
            code: 'resource-exhausted',
            message: `At most ${MAX_TOPICS_PER_SOCKET} topics per connection.`,
          });
        }
        const access = await accessTopic(this.db, principal, message.topic);
        if (!access.ok) {
          return this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'error', topic: message.topic, ...access.error });
        }
        if (!this.clients.has(client)) return;
        client.topics.set(message.topic, { load: access.load, mapId: access.mapId });
        if (access.role !== undefined) client.roles.set(message.topic, access.role);
        let set = this.subscribers.get(message.topic);
        if (!set) this.subscribers.set(message.topic, (set = new Set()));
        set.add(client);
        if (access.mapId !== undefined) return this.catchUp(client, message.topic, access, message.since);
        const snapshot = await access.load();
        if (snapshot.data) this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'snapshot', topic: message.topic, position: snapshot.position, data: snapshot.data });
        return;
      }
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
  }

  /**
   * Brings a map subscriber up to date: the events after `since` when it has a revision not too
   * far behind, else a snapshot (kept per map and revision: {@link MapSnapshots}) and the events
   * after the snapshot's revision (the read model may trail the stream, a kept one more so). The
   * topic's push cursor starts where the first subscriber was brought to.
   */
  private async catchUp(client: Client, topic: string, feed: { load: () => Promise<TopicSnapshot>; mapId?: string }, since: string | undefined): Promise<void> {
    const stream = streams.map(feed.mapId!);
    let from = since === undefined ? null : BigInt(since);
    let events = from === null ? null : await this.readMissing(stream, from);
    if (!events) {
      let snapshot: SnapshotMessage | null = await this.snapshots.get(topic, feed.mapId!);
      if (!snapshot) return;
      events = await this.readMissing(stream, snapshot.revision);
      // A kept snapshot too far behind the stream: a fresh one costs less than its events.
      if (snapshot.kept && (events === null || events.length > MapSnapshots.REUSE_WITHIN_EVENTS)) {
        snapshot = await this.snapshots.get(topic, feed.mapId!, { fresh: true });
        if (!snapshot) return;
        events = await this.readMissing(stream, snapshot.revision);
      }
      if (client.socket.readyState === client.socket.OPEN) client.socket.send(snapshot.bytes, { binary: false });
      from = snapshot.revision;
      events ??= [];
    }
    if (events.length > 0) this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'events', topic, events: events.map(liveMapEvent) });
    const reached = events.at(-1)?.revision ?? from!;
    if (!this.pushed.has(topic) && this.subscribers.get(topic)?.has(client)) {
      this.pushed.set(topic, reached);
      // Events the log gave while the cursor was not there yet were not pushed: look once more.
      void this.refresh(topic);
    }
  }

  /**
   * The events of `stream` after revision `since`, or null when they cannot be given: more than
   * {@link MAX_CATCH_UP_EVENTS}, or no event at `since` (the client names a revision the stream
   * does not have). The event at `since` itself is read to tell "up to date" from "unknown".
   */
  private async readMissing(stream: string, since: bigint): Promise<RecordedEvent[] | null> {
    const events = await this.store.readStream(stream, { fromRevision: since, maxCount: MAX_CATCH_UP_EVENTS + 2 });
    if (events[0]?.revision !== since || events.length > MAX_CATCH_UP_EVENTS + 1) return null;
    return events.slice(1);
  }

  private onNotice(payload: string): void {
    let notice: LiveNotice;
    try {
      notice = LiveNotice.parse(JSON.parse(payload));
    } catch {
      return;
    }
    if (notice.projection === MAP_MEMBERS_PROJECTION) {
      // Who may see these maps changed, not what is in them: check, do not push.
      const mapIds = notice.topics.flatMap((text) => {
        const topic = parseTopic(text);
        return topic?.kind === 'map' ? [topic.mapId] : [];
      });
      void this.recheckMapAccess(mapIds).catch((error: unknown) => this.logger.warn({ err: error }, 'live access re-check failed'));
      return;
    }
    for (const topic of notice.topics) {
      // A map topic follows its stream (onMapEvents), not the projections' notices.
      if (parseTopic(topic)?.kind === 'map') continue;
      if (this.subscribers.get(topic)?.size) void this.refresh(topic);
    }
  }

  /** One refresh per topic at a time; a change during a refresh triggers one more after it. */
  private async refresh(topic: string): Promise<void> {
    if (this.refreshing.has(topic)) {
      this.refreshing.set(topic, true);
      return;
    }
    this.refreshing.set(topic, false);
    try {
      do {
        this.refreshing.set(topic, false);
        const clients = [...(this.subscribers.get(topic) ?? [])];
        const feed = clients[0]?.topics.get(topic);
        if (!feed) break;
        if (feed.mapId !== undefined) {
          await this.pushEvents(topic, feed.mapId);
          continue;
        }
        const snapshot = await feed.load();
        if (!snapshot.data) continue;
        const message = JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'snapshot', topic, position: snapshot.position, data: snapshot.data } satisfies ServerMessage);
        this.broadcast(topic, message);
      } while (this.refreshing.get(topic));
    } catch (error) {
      this.logger.warn({ err: error, topic }, 'live refresh failed');
    } finally {
      this.refreshing.delete(topic);
    }
  }

  /** Reads the map's stream from the last revision pushed (a gap, a new cursor), and sends what is new to all its subscribers. */
  private async pushEvents(topic: string, mapId: string): Promise<void> {
    const stream = streams.map(mapId);
    for (;;) {
      const last = this.pushed.get(topic);
      // No cursor yet: the first subscriber is still being caught up, and it starts the cursor.
      if (last === undefined) return;
      const events = await this.store.readStream(stream, { fromRevision: last + 1n, maxCount: PUSH_BATCH });
      if (events.length === 0 || !this.subscribers.get(topic)?.size) return;
      const message = JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'events', topic, events: events.map(liveMapEvent) } satisfies ServerMessage);
      this.pushed.set(topic, events.at(-1)!.revision);
      this.broadcast(topic, message);
      if (events.length < PUSH_BATCH) return;
    }
  }

  private broadcast(topic: string, message: string): void {
    for (const client of this.subscribers.get(topic) ?? []) {
      if (client.socket.readyState === client.socket.OPEN) client.socket.send(message);
    }
  }
}
