/**
 * Login throttling by address and client together: a stranger's wrong passwords stop the
 * stranger, not the owner. Clients are told apart by their address (`remoteAddress` here,
 * `request.ip` in the app, which follows TRUST_PROXY).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_LIMITS, type AuthLimits } from '../../server/security/auth-limits.js';
import { LOGIN_PAUSED } from '../../server/security/login-throttle.js';
import { pgliteTarget } from '../support/databases.js';
import { linkFromOutbox, startTestServer, tokenOf, type TestServer } from '../support/test-server.js';

const PASSWORD = 'the owners own secret';
const OWNER = '198.51.100.7';
const STRANGER = '203.0.113.5';
const DAY = 86_400_000;

// Each login hashes with scrypt (at the test servers' PASSWORD_HASH_COST; unknown addresses too).
describe('login throttling', () => {
  let server: TestServer;
  let count = 0;
  const limits: AuthLimits = {
    ...DEFAULT_AUTH_LIMITS,
    // Windows a day long, so none ends in the middle of a test (the counts would restart).
    loginPerIp: { max: 30, windowMs: DAY },
    loginFailuresPerAccountAndIp: { max: 3, windowMs: DAY },
    loginFailuresPerAccount: { max: 4, windowMs: DAY },
  };

  beforeAll(async () => {
    server = await startTestServer(pgliteTarget, { authLimits: limits });
  });
  afterAll(() => server.close());

  async function post(path: string, data: unknown, client: string) {
    const response = await server.app.inject({ method: 'POST', url: `/api/auth/${path}`, remoteAddress: client, payload: { data } });
    return { status: response.statusCode, body: response.json() };
  }
  const login = (email: string, password: string, client: string) => post('login', { email, password }, client);

  /** An account registered (and so first signed in) from `client`. */
  async function account(client = '192.0.2.1'): Promise<string> {
    const email = `owner${++count}@example.com`;
    expect((await post('register', { email, password: PASSWORD, displayName: 'Owner' }, client)).status).toBe(200);
    return email;
  }

  it("a stranger's wrong passwords do not lock the owner out", async () => {
    // Given an owner, and a stranger who got their password wrong enough times to be stopped
    const email = await account(OWNER);
    for (let i = 0; i < limits.loginFailuresPerAccountAndIp.max; i++) {
      expect((await login(email, `guess number ${i}`, STRANGER)).status).toBe(401);
    }
    const stopped = await login(email, PASSWORD, STRANGER);
    expect([stopped.status, stopped.body.error.message]).toEqual([429, LOGIN_PAUSED]);

    // When the owner logs in from their own client, with a typo first, then they get in
    expect((await login(email, 'owner typo here', OWNER)).status).toBe(401);
    expect((await login(email, PASSWORD, OWNER)).status).toBe(200);
  });

  it('a successful login does not use up the allowance of wrong passwords', async () => {
    const email = await account(OWNER);
    for (let round = 0; round < limits.loginFailuresPerAccountAndIp.max; round++) {
      expect((await login(email, PASSWORD, OWNER)).status).toBe(200);
    }
    expect((await login(email, 'a wrong one', OWNER)).status).toBe(401);
  });

  it('many strangers guessing one address are stopped together; a client that signed in before still gets in', async () => {
    // Given an owner who has signed in from OWNER before
    const email = await account();
    expect((await login(email, PASSWORD, OWNER)).status).toBe(200);

    // When strangers on many addresses spend the account's allowance for unknown clients
    for (let i = 0; i < limits.loginFailuresPerAccount.max; i++) {
      expect((await login(email, `guess ${i}`, `203.0.113.${100 + i}`)).status).toBe(401);
    }

    // Then a further unknown client is stopped, even with the right password...
    expect((await login(email, PASSWORD, '203.0.113.200')).status).toBe(429);
    // ...while the owner's known client is not
    expect((await login(email, PASSWORD, OWNER)).status).toBe(200);

    // An owner on a new client uses the e-mailed reset link, which makes that client known too
    const traveller = '192.0.2.77';
    expect((await post('reset-request', { email }, traveller)).status).toBe(200);
    const token = tokenOf(await linkFromOutbox(server, email, '/reset'));
    expect((await post('reset-password', { token, password: 'a fresh owners secret' }, traveller)).status).toBe(200);
    expect((await login(email, 'a fresh owners secret', traveller)).status).toBe(200);
  });

  it('an unknown address is throttled like a known one (the limits tell nothing)', async () => {
    const known = await account();
    const unknown = `nobody${++count}@example.com`;
    const answers = async (email: string) => {
      const statuses: number[] = [];
      for (let i = 0; i <= limits.loginFailuresPerAccountAndIp.max; i++) statuses.push((await login(email, `guess ${i}`, '203.0.113.9')).status);
      return statuses;
    };
    expect(await answers(unknown)).toEqual(await answers(known));
  });

  it('still limits one client across many addresses (credential stuffing)', async () => {
    const strict = await startTestServer(pgliteTarget, { authLimits: { ...limits, loginPerIp: { max: 2, windowMs: DAY } } });
    try {
      const attempt = (i: number, client: string) =>
        strict.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: client, payload: { data: { email: `x${i}@example.com`, password: 'whatever123' } } });
      for (let i = 0; i < 2; i++) expect((await attempt(i, STRANGER)).statusCode).toBe(401);
      expect((await attempt(9, STRANGER)).statusCode).toBe(429);
      expect((await attempt(9, OWNER)).statusCode).toBe(401);
    } finally {
      await strict.close();
    }
  });
});
