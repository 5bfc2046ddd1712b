/**
 * The live hub: the server end of `/api/live`. It keeps each socket's topic subscriptions,
 * LISTENs for the projections' change notices (from any process sharing the database) and
 * pushes a fresh snapshot of each changed topic to its subscribers. It LISTENs for ended
 * sessions too (logout, password change, from any process), and closes their sockets at once.
 */
import type { WebSocket } from 'ws';
import { CLOSE_UNAUTHENTICATED, LIVE_PROTOCOL_VERSION, ClientMessage, type ServerMessage } from '../../events/live-messages.js';
import type { Principal } from '../../events/principal.js';
import { unsafeTextIssue } from '../../events/safe-text.js';
import { LIVE_CHANNEL, LiveNotice } from '../../projections/live-notices.js';
import { SESSIONS_CHANNEL, SessionsEnded } from '../auth/session-notices.js';
import type { Database } from '../db/database.js';
import { PresenceHub, type PresenceTimings } from './presence.js';
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
  topics: Map<string, () => Promise<TopicSnapshot>>;
  /** The role in the topic's map each map topic was granted with (an `access` message says when it changes). */
  roles: Map<string, MapRole | null>;
  alive: boolean;
  /** The message being handled; the next one waits for it. */
  queue: Promise<void>;
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
  private unlisten: (() => Promise<void>) | null = null;
  private unlistenSessions: (() => Promise<void>) | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  private recheckTimer: NodeJS.Timeout | null = null;
  /** Who is in which map (server/live/presence.ts): whoever may follow `map:{id}` may be present in it. */
  readonly presence: PresenceHub;

  constructor(
    private readonly db: Database,
    private readonly logger: HubLogger,
    /** How often each socket's session or token is checked again. */
    private readonly recheckMs = 30_000,
    presenceTimings?: Partial<PresenceTimings>,
  ) {
    const mayView = async (principal: Principal, mapId: string) => (await accessTopic(this.db, principal, topics.map(mapId))).ok;
    this.presence = new PresenceHub({ db, logger, mayView, ...(presenceTimings ? { timings: presenceTimings } : {}) });
  }

  async start(): Promise<void> {
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

  async stop(): Promise<void> {
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
    const client: Client = { socket, principal, expiresAt: null, auth, topics: new Map(), roles: new Map(), alive: true, queue: Promise.resolve() };
    this.clients.add(client);
    socket.on('pong', () => {
      client.alive = true;
    });
    socket.on('message', (raw, isBinary) => {
      if (isBinary) return this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'error', code: 'invalid-argument', message: 'Send text messages.' });
      // One message at a time per socket, in the order sent: an `auth` is settled before the
      // `subscribe` behind it, an unsubscribe never overtakes its subscribe.
      const text = raw.toString();
      client.queue = client.queue
        .then(() => this.onMessage(client, text))
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
    this.subscribers.get(topic)?.delete(client);
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
    for (const topic of client.topics.keys()) this.subscribers.get(topic)?.delete(client);
    client.topics.clear();
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
        client.topics.set(message.topic, access.load);
        if (access.role !== undefined) client.roles.set(message.topic, access.role);
        let set = this.subscribers.get(message.topic);
        if (!set) this.subscribers.set(message.topic, (set = new Set()));
        set.add(client);
        const snapshot = await access.load();
        return this.send(client, { v: LIVE_PROTOCOL_VERSION, type: 'snapshot', topic: message.topic, ...snapshot });
      }
      default: {
        const unreachable: never = message;
        return unreachable;
      }
    }
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
        const load = clients[0]?.topics.get(topic);
        if (!load) break;
        const snapshot = await load();
        const message = JSON.stringify({ v: LIVE_PROTOCOL_VERSION, type: 'snapshot', topic, ...snapshot } satisfies ServerMessage);
        for (const client of this.subscribers.get(topic) ?? []) {
          if (client.socket.readyState === client.socket.OPEN) client.socket.send(message);
        }
      } while (this.refreshing.get(topic));
    } catch (error) {
      this.logger.warn({ err: error, topic }, 'live refresh failed');
    } finally {
      this.refreshing.delete(topic);
    }
  }
}
