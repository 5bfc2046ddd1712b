/**
 * Local accounts end to end over HTTP: e-mail verification, password reset, the account page's
 * actions, rate limits, CSRF, cookies and the local outbox page.
 */
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLOSE_UNAUTHENTICATED } from '../../events/live-messages.js';
import { INVALID_RESET_LINK } from '../../server/auth/local-accounts.js';
import { DEFAULT_AUTH_LIMITS } from '../../server/security/auth-limits.js';
import { LOGIN_PAUSED } from '../../server/security/login-throttle.js';
import { TOO_MANY } from '../../server/security/rate-limiter.js';
import { pgliteTarget } from '../support/databases.js';
import { call, linkFromOutbox, registerUser, startTestServer, tokenOf, type TestServer } from '../support/test-server.js';

const DAY = 86_400_000;
/** Tests that log in many times, some on servers of their own. */
const LOGIN_HEAVY_MS = 60_000;

describe('local accounts', () => {
  let server: TestServer;
  let count = 0;
  const email = () => `person${++count}@example.com`;

  beforeAll(async () => {
    server = await startTestServer(pgliteTarget, {
      env: { PUBLIC_URL: 'http://localhost:3000' },
      liveRecheckMs: 200,
      authLimits: {
        ...DEFAULT_AUTH_LIMITS,
        registerPerIp: { max: 1000, windowMs: 3_600_000 },
        loginPerIp: { max: 1000, windowMs: 900_000 },
        resetPerIp: { max: 1000, windowMs: 3_600_000 },
        // A window a day long, so none ends in the middle of a test (the counts would restart).
        loginFailuresPerAccountAndIp: { ...DEFAULT_AUTH_LIMITS.loginFailuresPerAccountAndIp, windowMs: DAY },
      },
    });
  });
  afterAll(() => server.close());

  async function post(path: string, data: unknown, headers: Record<string, string> = {}) {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ data }),
    });
    return { status: response.status, body: (await response.json()) as any, cookie: response.headers.get('set-cookie') };
  }
  const me = async (cookie: string) => (await fetch(`${server.url}/api/auth/me`, { headers: { cookie } }).then((r) => r.json())).result;

  describe('e-mail verification', () => {
    it('mails a link on registration; an unverified user may not run commands until it is opened', async () => {
      const address = email();
      const user = await registerUser(server, address, { verified: false });
      const link = await linkFromOutbox(server, address, '/verify-email');
      expect(link).toMatch(/^http:\/\/localhost:3000\/verify-email\?token=[\w-]{43}$/);
      expect(await me(user.cookie)).toMatchObject({ emailVerified: false });

      const refused = await call(server, 'createMap', { title: 'Too early' }, user);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toEqual({ status: 'PERMISSION_DENIED', message: 'Verify your email address first.' });

      const verified = await post('/api/auth/verify-email', { token: tokenOf(link) }, { cookie: user.cookie });
      expect(verified.status).toBe(200);
      expect(verified.body.result).toMatchObject({ uid: user.uid, emailVerified: true });
      expect(await me(user.cookie)).toMatchObject({ emailVerified: true });
      expect((await call(server, 'createMap', { title: 'Now' }, user)).status).toBe(200);

      const again = await post('/api/auth/verify-email', { token: tokenOf(link) });
      expect(again.status).toBe(400);
      expect(again.body.error.message).toBe('This verification link is invalid or has expired. Sign in and press Resend to get a new one.');
      expect((await post('/api/auth/verify-email', { token: 'forged' })).status).toBe(400);
    });

    it('resends the mail, a few times an hour at most', async () => {
      const address = email();
      const user = await registerUser(server, address, { verified: false });
      for (let i = 0; i < DEFAULT_AUTH_LIMITS.resendPerAccount.max; i++) {
        expect((await post('/api/auth/resend-verification', {}, { cookie: user.cookie })).status).toBe(200);
      }
      const mails = (await server.services.outbox!.list(500)).filter((m) => m.to === address);
      expect(mails).toHaveLength(1 + DEFAULT_AUTH_LIMITS.resendPerAccount.max);
      const limited = await post('/api/auth/resend-verification', {}, { cookie: user.cookie });
      expect(limited.status).toBe(429);
      expect(limited.body.error).toEqual({ status: 'RESOURCE_EXHAUSTED', message: TOO_MANY });
      expect((await post('/api/auth/resend-verification', {})).status).toBe(401);
    });
  });

  describe('password reset', () => {
    it('answers the same for known and unknown addresses, and mails only the known one', async () => {
      const known = email();
      await registerUser(server, known);
      const a = await post('/api/auth/reset-request', { email: known });
      const b = await post('/api/auth/reset-request', { email: 'nobody-here@example.com' });
      expect([a.status, a.body]).toEqual([200, { result: null }]);
      expect([b.status, b.body]).toEqual([a.status, a.body]);
      await linkFromOutbox(server, known, '/reset');
      expect((await server.services.outbox!.list(500)).some((m) => m.to === 'nobody-here@example.com')).toBe(false);
    });

    it('sets a new password with a single-use link and signs out every other session', async () => {
      const address = email();
      const user = await registerUser(server, address);
      await post('/api/auth/reset-request', { email: address });
      const token = tokenOf(await linkFromOutbox(server, address, '/reset'));

      const weak = await post('/api/auth/reset-password', { token, password: 'password1' });
      expect(weak.status).toBe(400);
      expect(weak.body.error.message).toBe('password: This password is too common. Choose one that is harder to guess.');

      const reset = await post('/api/auth/reset-password', { token, password: 'a brand new secret' });
      expect(reset.status).toBe(200);
      expect(reset.body.result.uid).toBe(user.uid);
      expect(reset.cookie).toMatch(/^mapfold_session=/);
      expect(await me(user.cookie)).toBeNull();
      expect(await me(reset.cookie!.split(';')[0]!)).toMatchObject({ uid: user.uid });

      expect((await post('/api/auth/login', { email: address, password: 'a long enough password' })).status).toBe(401);
      expect((await post('/api/auth/login', { email: address, password: 'a brand new secret' })).status).toBe(200);
      const reused = await post('/api/auth/reset-password', { token, password: 'yet another secret' });
      expect(reused.status).toBe(400);
      expect(reused.body.error.message).toBe(INVALID_RESET_LINK);
    });

    /** The next reset link mailed to `address` that is not one of `seen`. */
    async function nextResetToken(address: string, seen: readonly string[]): Promise<string> {
      for (let attempt = 0; attempt < 100; attempt++) {
        const token = tokenOf(await linkFromOutbox(server, address, '/reset'));
        if (!seen.includes(token)) return token;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error(`No new reset link mailed to ${address}`);
    }

    it('asking for a new link revokes the older ones: an older link reads as an expired one', async () => {
      // Given two reset requests, each mailing a link
      const address = email();
      const user = await registerUser(server, address);
      await post('/api/auth/reset-request', { email: address });
      const older = await nextResetToken(address, []);
      await post('/api/auth/reset-request', { email: address });
      const newer = await nextResetToken(address, [older]);

      // When the older link is used, then it is refused with the expired link's answer
      const refused = await post('/api/auth/reset-password', { token: older, password: 'a brand new secret' });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toEqual({ status: 'INVALID_ARGUMENT', message: INVALID_RESET_LINK });
      expect(await me(user.cookie)).not.toBeNull();
      // ...and the newest one still works
      expect((await post('/api/auth/reset-password', { token: newer, password: 'a brand new secret' })).status).toBe(200);
    });

    it('using a link revokes every other live one of the account', async () => {
      // Given a mailed link, and another live one (issued before this rule, or by a racing request)
      const address = email();
      const user = await registerUser(server, address);
      await post('/api/auth/reset-request', { email: address });
      const mailed = await nextResetToken(address, []);
      const { createHash } = await import('node:crypto');
      const other = 'another-live-reset-token';
      await server.database.db.query(
        `INSERT INTO auth_tokens (token_hash, uid, purpose, expires_at) VALUES ($1, $2, 'reset-password', now() + interval '1 hour')`,
        [createHash('sha256').update(other).digest('hex'), user.uid],
      );

      // When the mailed link sets a password, then the other link no longer can
      expect((await post('/api/auth/reset-password', { token: mailed, password: 'a brand new secret' })).status).toBe(200);
      const refused = await post('/api/auth/reset-password', { token: other, password: 'the thief wants in' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(INVALID_RESET_LINK);
      expect((await post('/api/auth/login', { email: address, password: 'a brand new secret' })).status).toBe(200);
    });

    it('changing the password on the account page revokes the outstanding links', async () => {
      const address = email();
      const user = await registerUser(server, address);
      await post('/api/auth/reset-request', { email: address });
      const token = await nextResetToken(address, []);
      const changed = await post('/api/auth/change-password', { currentPassword: 'a long enough password', newPassword: 'another good one' }, { cookie: user.cookie });
      expect(changed.status).toBe(200);
      const refused = await post('/api/auth/reset-password', { token, password: 'a brand new secret' });
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toBe(INVALID_RESET_LINK);
    });

    it('refuses a link older than an hour', async () => {
      const address = email();
      await registerUser(server, address);
      await post('/api/auth/reset-request', { email: address });
      const token = tokenOf(await linkFromOutbox(server, address, '/reset'));
      await server.database.db.query(`UPDATE auth_tokens SET expires_at = now() - interval '1 second' WHERE purpose = 'reset-password'`);
      expect((await post('/api/auth/reset-password', { token, password: 'a brand new secret' })).status).toBe(400);
    });

    it('limits reset requests per address', async () => {
      const address = email();
      for (let i = 0; i < DEFAULT_AUTH_LIMITS.resetPerAccount.max; i++) {
        expect((await post('/api/auth/reset-request', { email: address })).status).toBe(200);
      }
      expect((await post('/api/auth/reset-request', { email: address })).status).toBe(429);
    });
  });

  describe('passwords and logins', () => {
    it('refuses the most common passwords at registration', async () => {
      for (const password of ['password', '12345678', 'iloveyou', 'Password1', 'qwertyuiop']) {
        const answer = await post('/api/auth/register', { email: email(), password, displayName: 'X' });
        expect(answer.status).toBe(400);
        expect(answer.body.error.message).toMatch(/password: (This password is too common|Password must be at least 8)/);
      }
    });

    it('limits wrong passwords per address and client; the owner on another client still gets in', async () => {
      const address = email();
      await registerUser(server, address);
      const stranger = (password: string) =>
        server.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '203.0.113.66', payload: { data: { email: address, password } } });
      for (let i = 0; i < DEFAULT_AUTH_LIMITS.loginFailuresPerAccountAndIp.max; i++) expect((await stranger('not the password')).statusCode).toBe(401);
      const limited = await stranger('a long enough password');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.message).toBe(LOGIN_PAUSED);
      expect((await post('/api/auth/login', { email: address.toUpperCase(), password: 'a long enough password' })).status).toBe(200);
    }, LOGIN_HEAVY_MS);

    it('counts the client address behind a trusted proxy, and ignores forwarded addresses otherwise', async () => {
      const limits = { ...DEFAULT_AUTH_LIMITS, loginPerIp: { max: 1, windowMs: DAY } };
      const proxied = await startTestServer(pgliteTarget, { env: { TRUST_PROXY: 'loopback' }, authLimits: limits });
      const direct = await startTestServer(pgliteTarget, { authLimits: limits });
      try {
        const login = (target: TestServer, forwardedFor: string) =>
          fetch(`${target.url}/api/auth/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
            body: JSON.stringify({ data: { email: 'who@example.com', password: 'whatever123' } }),
          }).then((r) => r.status);
        // Behind the proxy, two clients each get their own allowance...
        expect(await login(proxied, '198.51.100.1')).toBe(401);
        expect(await login(proxied, '198.51.100.2')).toBe(401);
        expect(await login(proxied, '198.51.100.1')).toBe(429);
        // ...without one, a forged header cannot buy a fresh allowance.
        expect(await login(direct, '198.51.100.1')).toBe(401);
        expect(await login(direct, '198.51.100.2')).toBe(429);
      } finally {
        await proxied.close();
        await direct.close();
      }
    }, LOGIN_HEAVY_MS);

    it('limits logins and registrations per client address', async () => {
      const strict = await startTestServer(pgliteTarget, {
        authLimits: { ...DEFAULT_AUTH_LIMITS, loginPerIp: { max: 3, windowMs: DAY }, registerPerIp: { max: 2, windowMs: DAY } },
      });
      try {
        const hit = (path: string, data: unknown) =>
          fetch(`${strict.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }) }).then((r) => r.status);
        for (let i = 0; i < 3; i++) expect(await hit('/api/auth/login', { email: `x${i}@example.com`, password: 'whatever123' })).toBe(401);
        expect(await hit('/api/auth/login', { email: 'x9@example.com', password: 'whatever123' })).toBe(429);
        for (let i = 0; i < 2; i++) expect(await hit('/api/auth/register', { email: `r${i}@example.com`, password: 'long enough pw', displayName: 'R' })).toBe(200);
        expect(await hit('/api/auth/register', { email: 'r9@example.com', password: 'long enough pw', displayName: 'R' })).toBe(429);
      } finally {
        await strict.close();
      }
    }, LOGIN_HEAVY_MS);
  });

  describe('the account page', () => {
    it('changes the display name', async () => {
      const user = await registerUser(server);
      const answer = await post('/api/auth/update-profile', { displayName: '  Ana Lima ' }, { cookie: user.cookie });
      expect(answer.body.result.displayName).toBe('Ana Lima');
      expect((await me(user.cookie)).displayName).toBe('Ana Lima');
      expect((await post('/api/auth/update-profile', { displayName: '' }, { cookie: user.cookie })).status).toBe(400);
      expect((await post('/api/auth/update-profile', { displayName: 'Nobody' })).status).toBe(401);
    });

    it('changes the password, keeping this session and ending the others', async () => {
      const address = email();
      const user = await registerUser(server, address);
      const other = (await post('/api/auth/login', { email: address, password: 'a long enough password' })).cookie!.split(';')[0]!;
      const wrong = await post('/api/auth/change-password', { currentPassword: 'nope nope', newPassword: 'another good one' }, { cookie: user.cookie });
      expect(wrong.status).toBe(401);
      const changed = await post('/api/auth/change-password', { currentPassword: 'a long enough password', newPassword: 'another good one' }, { cookie: user.cookie });
      expect(changed.status).toBe(200);
      expect(await me(user.cookie)).not.toBeNull();
      expect(await me(other)).toBeNull();
    });

    it('signs out everywhere, closing live sockets too', async () => {
      const user = await registerUser(server);
      const socket = new WebSocket(`${server.url.replace('http', 'ws')}/api/live?v=2`, { headers: { cookie: user.cookie } });
      const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
      await new Promise((resolve) => socket.once('message', resolve));
      expect((await post('/api/auth/sign-out-everywhere', {}, { cookie: user.cookie })).status).toBe(200);
      expect(await me(user.cookie)).toBeNull();
      expect(await closed).toBe(CLOSE_UNAUTHENTICATED);
    });

    it('deletes the account after the password: its maps are deleted, their streams kept', async () => {
      const address = email();
      const user = await registerUser(server, address);
      const made = await call(server, 'createMap', { title: 'Soon gone' }, user);
      await server.runner.waitFor((await import('../../events/position.js')).parsePosition(made.body.position));
      expect((await post('/api/auth/delete-account', { password: 'wrong one!' }, { cookie: user.cookie })).status).toBe(401);
      expect((await post('/api/auth/delete-account', { password: 'a long enough password' }, { cookie: user.cookie })).status).toBe(200);
      expect(await me(user.cookie)).toBeNull();
      expect((await post('/api/auth/login', { email: address, password: 'a long enough password' })).status).toBe(401);
      const stream = await server.services.store.readStream(`map-${made.body.result}`);
      expect(stream.map((e) => e.type)).toEqual(['MapCreated', 'MapDeleted']);
    });
  });

  describe('cookies and cross-site requests', () => {
    it('keeps the session in an httpOnly, SameSite cookie, Secure behind HTTPS', async () => {
      const plain = await post('/api/auth/register', { email: email(), password: 'long enough pw', displayName: 'C' });
      expect(plain.cookie).toMatch(/HttpOnly/);
      expect(plain.cookie).toMatch(/SameSite=Lax/);
      expect(plain.cookie).not.toMatch(/Secure/);
      const https = await startTestServer(pgliteTarget, { env: { PUBLIC_URL: 'https://maps.example.com' } });
      try {
        const answer = await fetch(`${https.url}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ data: { email: 's@example.com', password: 'long enough pw', displayName: 'S' } }),
        });
        expect(answer.headers.get('set-cookie')).toMatch(/; Secure/);
      } finally {
        await https.close();
      }
    });

    it('stores only hashes of session and e-mailed tokens', async () => {
      const address = email();
      const user = await registerUser(server, address, { verified: false });
      const sessionToken = user.cookie.split('=')[1]!;
      const linkToken = tokenOf(await linkFromOutbox(server, address, '/verify-email'));
      const { createHash } = await import('node:crypto');
      const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
      const sessions = await server.database.db.query<{ token_hash: string }>('SELECT token_hash FROM auth_sessions WHERE uid = $1', [user.uid]);
      const tokens = await server.database.db.query<{ token_hash: string }>('SELECT token_hash FROM auth_tokens WHERE uid = $1', [user.uid]);
      expect(sessions.rows.map((r) => r.token_hash)).toEqual([sha256(sessionToken)]);
      expect(tokens.rows.map((r) => r.token_hash)).toEqual([sha256(linkToken)]);
      const dump = JSON.stringify([sessions.rows, tokens.rows]);
      expect(dump).not.toContain(sessionToken);
      expect(dump).not.toContain(linkToken);
    });

    it("refuses writes from another site's pages, before anything runs", async () => {
      const user = await registerUser(server);
      const evil = await call(server, 'createMap', { title: 'CSRF' }, user).then(() =>
        post('/api/fn/createMap', { title: 'CSRF' }, { cookie: user.cookie, origin: 'https://evil.example' }),
      );
      expect(evil.status).toBe(403);
      expect(evil.body.error).toEqual({ status: 'PERMISSION_DENIED', message: 'Cross-site request refused.' });
      const fetchSite = await post('/api/auth/update-profile', { displayName: 'Hacked' }, { cookie: user.cookie, 'sec-fetch-site': 'cross-site' });
      expect(fetchSite.status).toBe(403);
      expect((await me(user.cookie)).displayName).toBe('Test User');
      const own = await post('/api/auth/update-profile', { displayName: 'Mine' }, { cookie: user.cookie, origin: 'http://localhost:3000' });
      expect(own.status).toBe(200);
    });
  });

  describe('the outbox page', () => {
    it('shows the mails to this machine only', async () => {
      const address = email();
      await registerUser(server, address, { verified: false });
      const page = await fetch(`${server.url}/dev/outbox`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(address);
      expect(html).toMatch(/<a href="http:\/\/localhost:3000\/verify-email\?token=/);
      const remote = await server.app.inject({ method: 'GET', url: '/dev/outbox', remoteAddress: '203.0.113.9' });
      expect(remote.statusCode).toBe(404);
      const spoofed = await server.app.inject({ method: 'GET', url: '/dev/outbox', remoteAddress: '203.0.113.9', headers: { 'x-forwarded-for': '127.0.0.1' } });
      expect(spoofed.statusCode).toBe(404);
    });

    it('does not exist when mail goes out over SMTP', async () => {
      const smtp = await startTestServer(pgliteTarget, { env: { SMTP_URL: 'smtp://127.0.0.1:2525' } });
      try {
        // The path is then only an unknown page of the client app, without any mail in it.
        expect(await (await fetch(`${smtp.url}/dev/outbox`)).text()).not.toContain('<h1>Outbox</h1>');
        expect(smtp.services.outbox).toBeNull();
      } finally {
        await smtp.close();
      }
    });
  });
});
