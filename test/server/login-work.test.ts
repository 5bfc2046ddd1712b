/**
 * A login for an unknown address does the same work as one with a wrong password: one password
 * verification at the real hash's cost, against a dummy hash. (Counted through an injected
 * hasher, not timed: timings on a shared machine are noise.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalAccounts } from '../../server/auth/local-accounts.js';
import { hashPassword, verifyPassword, type PasswordHasher } from '../../server/auth/password-hash.js';
import { randomIds, systemClock } from '../../server/clock.js';
import { DomainError } from '../../events/errors.js';
import { pgliteTarget } from '../support/databases.js';
import type { TestDatabase } from '../support/databases.js';

/** The cost part of a stored hash ("scrypt$N$r$p"), which is what sets the work. */
const costOf = (stored: string) => stored.split('$').slice(0, 4).join('$');

describe('the work of a login', () => {
  let database: TestDatabase;
  let accounts: LocalAccounts;
  const verified: string[] = [];
  const countingHasher: PasswordHasher = {
    hash: hashPassword,
    verify: async (password, stored) => {
      verified.push(stored);
      return verifyPassword(password, stored);
    },
  };

  beforeAll(async () => {
    database = await pgliteTarget.open();
    accounts = await LocalAccounts.open({
      db: database.db,
      clock: systemClock,
      ids: randomIds,
      adminEmails: new Set(),
      mailer: { kind: 'outbox', send: async () => {} },
      publicUrl: 'http://localhost:3000',
      onMailError: () => {},
      passwords: countingHasher,
    });
    await accounts.register({ email: 'owner@example.com', password: 'the owners secret', displayName: 'Owner' }, '192.0.2.1');
  });
  afterAll(() => database.dispose());

  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => (error instanceof DomainError ? { code: error.code, message: error.message } : error),
    );

  it('verifies a password against a dummy hash of the same cost when the address is unknown', async () => {
    // Given a known account's stored hash
    const { rows } = await database.db.query<{ password_hash: string }>('SELECT password_hash FROM auth_accounts');
    const realHash = rows[0]!.password_hash;

    // When an unknown address and a wrong password log in
    verified.length = 0;
    const unknown = await failureOf(accounts.login({ email: 'stranger@example.com', password: 'some guess 1' }, '192.0.2.9'));
    const afterUnknown = [...verified];
    verified.length = 0;
    const wrong = await failureOf(accounts.login({ email: 'owner@example.com', password: 'some guess 1' }, '192.0.2.9'));

    // Then both verify exactly one password, at the same cost, and fail alike
    expect(afterUnknown).toHaveLength(1);
    expect(verified).toEqual([realHash]);
    expect(costOf(afterUnknown[0]!)).toBe(costOf(realHash));
    expect(afterUnknown[0]).not.toBe(realHash);
    expect(unknown).toEqual({ code: 'unauthenticated', message: 'Incorrect email or password.' });
    expect(wrong).toEqual(unknown);
  });

  it('uses one dummy hash, made once (no hashing per request)', async () => {
    verified.length = 0;
    await failureOf(accounts.login({ email: 'a@example.com', password: 'first guess' }, '192.0.2.9'));
    await failureOf(accounts.login({ email: 'b@example.com', password: 'second guess' }, '192.0.2.9'));
    expect(new Set(verified).size).toBe(1);
  });
});
