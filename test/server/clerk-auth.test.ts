/**
 * Clerk mode: the server verifies session tokens with Clerk's own SDK, networkless through
 * CLERK_JWT_KEY. The tokens are signed here with a generated RSA key, so every check (signature,
 * expiry, authorized party) runs for real.
 */
import { generateKeyPairSync } from 'node:crypto';
import { SignJWT, importPKCS8 } from 'jose';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_UNAUTHENTICATED } from '../../events/live-messages.js';
import { topics } from '../../events/topics.js';
import { announceSessionsEnded } from '../../server/auth/session-notices.js';
import { pgliteTarget } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const APP_ORIGIN = 'http://localhost:3000';
const keyPair = () => generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } });
const clerkKey = keyPair();
const otherKey = keyPair();

interface TokenOptions {
  privateKey?: string;
  azp?: string;
  expiresInSeconds?: number;
  claims?: Record<string, unknown>;
}

async function sessionToken({ privateKey = clerkKey.privateKey, azp = APP_ORIGIN, expiresInSeconds = 60, claims = {} }: TokenOptions = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    azp,
    sid: 'sess_test',
    email: 'ana@example.com',
    email_verified: true,
    name: 'Ana Lima',
    admin: false,
    stripeRole: 'pro',
    ...claims,
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'ins_test', typ: 'JWT' })
    .setSubject(typeof claims.sub === 'string' ? claims.sub : 'user_2abc')
    .setIssuer('https://clerk.mapfold.test')
    .setIssuedAt(now - 5)
    .setNotBefore(now - 5)
    .setExpirationTime(now + expiresInSeconds)
    .sign(await importPKCS8(privateKey, 'RS256'));
}

describe('Clerk sign-in', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(pgliteTarget, {
      env: {
        PUBLIC_URL: APP_ORIGIN,
        CLERK_PUBLISHABLE_KEY: 'pk_test_Y2xlcmsubWFwZm9sZC50ZXN0JA',
        CLERK_SECRET_KEY: 'sk_test_not_used_for_networkless_checks',
        // As it often arrives in an environment variable: one line, with literal \n.
        CLERK_JWT_KEY: clerkKey.publicKey.replace(/\n/g, '\\n'),
      },
    });
  });
  afterAll(() => server.close());

  const me = async (token: string) =>
    (await fetch(`${server.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())).result;

  it('tells the client to use Clerk, with its publishable key; the local account routes are gone', async () => {
    const config = await fetch(`${server.url}/api/config`).then((r) => r.json());
    expect(config.result).toEqual({ auth: 'clerk', clerkPublishableKey: 'pk_test_Y2xlcmsubWFwZm9sZC50ZXN0JA' });
    const login = await fetch(`${server.url}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"data":{}}' });
    expect(login.status).toBe(404);
    expect(server.services.localAccounts).toBeNull();
  });

  it('a valid session token yields the principal from its claims', async () => {
    expect(await me(await sessionToken({ claims: { admin: true } }))).toEqual({
      uid: 'user_2abc',
      email: 'ana@example.com',
      emailVerified: true,
      displayName: 'Ana Lima',
      admin: true,
      stripeRole: 'pro',
    });
    const plain = await me(await sessionToken({ claims: { stripeRole: '', admin: 'false', email_verified: 'false' } }));
    expect(plain).toMatchObject({ admin: false, stripeRole: null, emailVerified: false });
  });

  it('refuses an expired token, one signed with another key, and one for another site', async () => {
    expect(await me(await sessionToken({ expiresInSeconds: -120 }))).toBeNull();
    expect(await me(await sessionToken({ privateKey: otherKey.privateKey }))).toBeNull();
    expect(await me(await sessionToken({ azp: 'https://evil.example' }))).toBeNull();
    expect(await me('not.a.token')).toBeNull();
  });

  it('runs commands for a valid token, and refuses them without one', async () => {
    const token = await sessionToken();
    const create = (authorization?: string) =>
      fetch(`${server.url}/api/fn/createMap`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        body: JSON.stringify({ data: { title: 'Clerk map' } }),
      });
    expect((await create(`Bearer ${token}`)).status).toBe(200);
    expect((await create(`Bearer ${await sessionToken({ expiresInSeconds: -120 })}`)).status).toBe(401);
    expect((await create()).status).toBe(401);
  });

  it('signs a live socket in with an auth message, and closes it for a bad token', async () => {
    const open = () => {
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/live?v=2`);
      const messages: any[] = [];
      socket.on('message', (raw) => messages.push(JSON.parse(raw.toString())));
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      return { socket, messages, closed, ready: new Promise((resolve) => socket.once('open', resolve)) };
    };
    const until = async (predicate: () => boolean) => {
      for (let i = 0; i < 500 && !predicate(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
    };

    const good = open();
    await good.ready;
    good.socket.send(JSON.stringify({ v: 2, type: 'subscribe', topic: topics.maps('user_2abc') }));
    await until(() => good.messages.length > 0);
    expect(good.messages[0]).toMatchObject({ type: 'error', code: 'unauthenticated' });
    good.socket.send(JSON.stringify({ v: 2, type: 'auth', token: await sessionToken() }));
    good.socket.send(JSON.stringify({ v: 2, type: 'subscribe', topic: topics.maps('user_2abc') }));
    await until(() => good.messages.some((m) => m.type === 'snapshot'));
    expect(good.messages.find((m) => m.type === 'welcome')).toMatchObject({ uid: 'user_2abc' });
    expect(good.messages.find((m) => m.type === 'snapshot').data.maps.map((m: { title: string }) => m.title)).toContain('Clerk map');
    // A fresh token for the same user keeps the socket; another user's token closes it.
    good.socket.send(JSON.stringify({ v: 2, type: 'auth', token: await sessionToken() }));
    good.socket.send(JSON.stringify({ v: 2, type: 'ping' }));
    await until(() => good.messages.some((m) => m.type === 'pong'));
    good.socket.send(JSON.stringify({ v: 2, type: 'auth', token: await sessionToken({ claims: { sub: 'user_other' } }) }));
    expect(await good.closed).toBe(CLOSE_UNAUTHENTICATED);

    const bad = open();
    await bad.ready;
    bad.socket.send(JSON.stringify({ v: 2, type: 'auth', token: await sessionToken({ privateKey: otherKey.privateKey }) }));
    expect(await bad.closed).toBe(CLOSE_UNAUTHENTICATED);
  });

  it("closes a deleted account's token sockets at once, though their tokens are still valid", async () => {
    // Given a socket signed in with a token that is valid for another minute
    const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/live?v=2`);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    const welcomed = new Promise((resolve) => socket.on('message', (raw) => JSON.parse(raw.toString()).type === 'welcome' && resolve(null)));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ v: 2, type: 'auth', token: await sessionToken({ claims: { sub: 'user_deleted' } }) }));
    await welcomed;

    // When the account is deleted (the route announces it after Clerk's deleteUser)
    await announceSessionsEnded(server.database.db, { uid: 'user_deleted', everySession: true });

    // Then its socket closes as signed out
    expect(await closed).toEqual({ code: CLOSE_UNAUTHENTICATED, reason: 'Session ended' });
  });
});
