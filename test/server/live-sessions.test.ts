/**
 * Ending a session closes its live sockets at once, in every server process: logout closes the
 * sockets of that session, a password change those of the other sessions. The servers here
 * re-check sessions only hourly, so a socket that closes did so because of the revocation,
 * not the timer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_UNAUTHENTICATED } from '../../events/live-messages.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openPostgresDatabase } from '../../server/db/postgres-database.js';
import { openServices } from '../../server/services.js';
import { databaseTargets } from '../support/databases.js';
import { openLive, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const HOURLY = 3_600_000;
const PASSWORD = 'a long enough password';

type Live = Awaited<ReturnType<typeof openLive>>;

/** The socket's close, or a failure if it stays open (the old hub closed it only on its timer). */
function closeOf(live: Live, deadlineMs = 10_000): Promise<{ code: number; reason: string }> {
  return Promise.race([
    live.closed,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('The socket stayed open after its session ended.')), deadlineMs).unref()),
  ]);
}

/** Proves a socket is still open and served: it answers a ping. */
async function stillServed(live: Live): Promise<void> {
  const before = live.messages.filter((m) => m.type === 'pong').length;
  live.send({ v: 2, type: 'ping' });
  await live.next(() => live.messages.filter((m) => m.type === 'pong').length > before);
}

async function post(server: Pick<TestServer, 'url'>, path: string, data: unknown, cookie?: string) {
  const response = await fetch(`${server.url}/api/auth/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ data }),
  });
  return { status: response.status, cookie: response.headers.get('set-cookie')?.split(';')[0] ?? '' };
}

describe.each(databaseTargets)('ending a session on $name', (target) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(target, { liveRecheckMs: HOURLY });
  });
  afterAll(() => server.close());

  /** A user signed in twice (two browsers): the registration's session and a login's. */
  async function userWithTwoSessions(): Promise<{ first: TestUser; second: TestUser; email: string }> {
    const email = `two-sessions-${Math.random().toString(36).slice(2)}@example.com`;
    const first = await registerUser(server, email);
    const second = { uid: first.uid, cookie: (await post(server, 'login', { email, password: PASSWORD })).cookie };
    return { first, second, email };
  }

  async function welcomed(user: TestUser): Promise<Live> {
    const live = await openLive(server, user);
    await live.next((m) => m.type === 'welcome');
    return live;
  }

  it("logout closes that session's sockets at once, and only those", async () => {
    // Given two sessions of one user, each with a live socket
    const { first, second } = await userWithTwoSessions();
    const [firstLive, secondLive] = [await welcomed(first), await welcomed(second)];

    // When the first session logs out
    expect((await post(server, 'logout', null, first.cookie)).status).toBe(200);

    // Then its socket closes as unauthenticated (the client then asks who is signed in, and stops)
    expect(await closeOf(firstLive)).toEqual({ code: CLOSE_UNAUTHENTICATED, reason: 'Session ended' });
    // ...and the other session's socket is still served
    await stillServed(secondLive);
    secondLive.close();
  });

  it('a password change ends the other sessions and closes their sockets; this one stays', async () => {
    const { first, second } = await userWithTwoSessions();
    const [firstLive, secondLive] = [await welcomed(first), await welcomed(second)];

    const changed = await post(server, 'change-password', { currentPassword: PASSWORD, newPassword: 'another good one' }, first.cookie);
    expect(changed.status).toBe(200);

    expect((await closeOf(secondLive)).code).toBe(CLOSE_UNAUTHENTICATED);
    await stillServed(firstLive);
    firstLive.close();
  });

  if (target.name === 'postgres') {
    it('logout through one process closes the sockets held by another', async () => {
      // Given a second server process on the same database, holding the user's socket
      const db = await openPostgresDatabase(server.database.url!);
      const services = await openServices(loadConfig({}), { db, logger: { info: () => {}, error: () => {} } });
      const other = await buildApp(services, false, { liveRecheckMs: HOURLY });
      await other.listen({ port: 0, host: '127.0.0.1' });
      const address = other.server.address();
      const otherServer = { ...server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
      try {
        const { first, second, email } = await userWithTwoSessions();
        const firstLive = await openLive(otherServer, first);
        const secondLive = await openLive(otherServer, second);
        await firstLive.next((m) => m.type === 'welcome');
        await secondLive.next((m) => m.type === 'welcome');

        // When the session logs out through the first process
        expect((await post(server, 'logout', null, first.cookie)).status).toBe(200);

        // Then the other process closes its socket at once
        expect((await closeOf(firstLive)).code).toBe(CLOSE_UNAUTHENTICATED);
        await stillServed(secondLive);

        // And a password change through the other process reaches this one's sockets too
        const here = await welcomed(second);
        const third = { uid: first.uid, cookie: (await post(otherServer, 'login', { email, password: PASSWORD })).cookie };
        expect((await post(otherServer, 'change-password', { currentPassword: PASSWORD, newPassword: 'another good one' }, third.cookie)).status).toBe(200);
        expect((await closeOf(here)).code).toBe(CLOSE_UNAUTHENTICATED);
        expect((await closeOf(secondLive)).code).toBe(CLOSE_UNAUTHENTICATED);
      } finally {
        await other.close();
        await services.close();
      }
    });
  }
});
