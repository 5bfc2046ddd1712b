/** The local auth provider's routes: register, log in, who am I, log out. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteTarget } from '../support/databases.js';
import { linkFromOutbox, startTestServer, tokenOf, type TestServer } from '../support/test-server.js';

describe('local accounts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(pgliteTarget);
  });
  afterAll(() => server.close());

  const post = async (path: string, data: unknown, cookie?: string) => {
    const response = await fetch(`${server.url}/api/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: JSON.stringify({ data }),
    });
    return { status: response.status, body: await response.json(), cookie: response.headers.get('set-cookie') };
  };
  const me = async (cookie?: string) =>
    (await fetch(`${server.url}/api/auth/me`, { headers: cookie ? { cookie } : {} }).then((r) => r.json())).result;

  it('registers, keeps the session in an httpOnly cookie, and stores no plain password', async () => {
    const answer = await post('register', { email: ' Ana@Example.com ', password: 'correct horse battery', displayName: 'Ana Lima' });
    expect(answer.status).toBe(200);
    expect(answer.body.result).toMatchObject({ email: 'ana@example.com', displayName: 'Ana Lima', emailVerified: false, admin: false, stripeRole: null });
    expect(answer.cookie).toMatch(/^mapfold_session=[\w-]+;.*HttpOnly/);
    expect(answer.cookie).toMatch(/SameSite=Lax/);
    const cookie = answer.cookie!.split(';')[0]!;
    expect((await me(cookie)).uid).toBe(answer.body.result.uid);
    const { rows } = await server.database.db.query<{ password_hash: string }>('SELECT password_hash FROM auth_accounts');
    expect(rows.every((row) => row.password_hash.startsWith('scrypt$') && !row.password_hash.includes('correct horse'))).toBe(true);
  });

  it('refuses a second account with the same email, a short password and missing fields', async () => {
    const again = await post('register', { email: 'ana@example.com', password: 'another password', displayName: 'Ana' });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('An account with this email already exists. Log in instead.');
    const short = await post('register', { email: 'b@example.com', password: 'short', displayName: 'B' });
    expect(short.status).toBe(400);
    expect(short.body.error.message).toBe('password: Password must be at least 8 characters.');
    expect((await post('register', { email: 'not-an-email', password: 'long enough pw', displayName: 'C' })).body.error.message).toBe(
      'email: Enter a valid email address.',
    );
    expect((await post('register', { email: 'd@example.com', password: 'long enough pw', displayName: ' ' })).body.error.message).toBe(
      'displayName: Name is required.',
    );
  });

  it('logs in; an unknown address and a wrong password get the same answer', async () => {
    const unknown = await post('login', { email: 'nobody@example.com', password: 'whatever123' });
    const wrong = await post('login', { email: 'ana@example.com', password: 'wrong password' });
    // Nothing tells a stranger which addresses have accounts: same status, same message.
    expect([unknown.status, unknown.body]).toEqual([401, { error: { status: 'UNAUTHENTICATED', message: 'Incorrect email or password.' } }]);
    expect([wrong.status, wrong.body]).toEqual([unknown.status, unknown.body]);
    const ok = await post('login', { email: 'ANA@example.com', password: 'correct horse battery' });
    expect(ok.status).toBe(200);
    expect(ok.body.result.email).toBe('ana@example.com');
  });

  it('logs out: the session stops working', async () => {
    const login = await post('login', { email: 'ana@example.com', password: 'correct horse battery' });
    const cookie = login.cookie!.split(';')[0]!;
    expect(await me(cookie)).not.toBeNull();
    const out = await post('logout', null, cookie);
    expect(out.status).toBe(200);
    expect(out.cookie).toMatch(/mapfold_session=;/);
    expect(await me(cookie)).toBeNull();
    expect(await me()).toBeNull();
  });

  it('gives the admin claim to the configured admin emails, once the address is verified', async () => {
    const answer = await post('register', { email: 'admin@example.com', password: 'admin password 1', displayName: 'Root' });
    expect(answer.body.result.admin).toBe(false);
    const cookie = answer.cookie!.split(';')[0]!;
    const token = tokenOf(await linkFromOutbox(server, 'admin@example.com', '/verify-email'));
    expect((await post('verify-email', { token }, cookie)).status).toBe(200);
    expect((await me(cookie))!.admin).toBe(true);
  });
});
