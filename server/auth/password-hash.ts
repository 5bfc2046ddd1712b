/**
 * Password hashing with scrypt from Node's own crypto (no native addon to build), at OWASP's
 * recommended cost (N=2^17, r=8, p=1). The parameters are stored with each hash, so they can
 * be raised later without breaking existing accounts. A lower N is only for test servers
 * (PASSWORD_HASH_COST, which config.ts refuses below 17 in production): the suites register
 * and sign in hundreds of accounts, and at full cost each took 0.3 s to seconds of a shared CI
 * machine.
 */
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** log2 of scrypt's N in production (PASSWORD_HASH_COST's default). */
export const DEFAULT_PASSWORD_HASH_COST = 17;
const N = 2 ** DEFAULT_PASSWORD_HASH_COST;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const maxmem = (n: number, r: number) => 128 * n * r * 2;

const stored = (salt: Buffer, key: Buffer, n = N) => ['scrypt', n, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');

async function hashAt(password: string, n: number): Promise<string> {
  const salt = randomBytes(16);
  return stored(salt, await scrypt(password, salt, { N: n, r: R, p: P, maxmem: maxmem(n, R) }), n);
}

export function hashPassword(password: string): Promise<string> {
  return hashAt(password, N);
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: maxmem(Number(n), Number(r)),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * What a login verifies an unknown address's password against, so that it costs what a wrong
 * password costs. Made once per process, at today's parameters, with a random key that is no
 * scrypt output: no password matches it (short of a 256-bit collision). Building it hashes
 * nothing, so start-up pays nothing for it.
 */
export const DUMMY_HASH = stored(randomBytes(16), randomBytes(KEY_LENGTH));

/** Hashing as the accounts use it; tests pass one that counts. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, stored: string): Promise<boolean>;
  /** What an unknown address's password is verified against, at `hash`'s cost (default: {@link DUMMY_HASH}). */
  dummyHash?: string;
}

export const scryptHasher: PasswordHasher = { hash: hashPassword, verify: verifyPassword, dummyHash: DUMMY_HASH };

/**
 * scrypt with N = 2^cost: the production hasher at {@link DEFAULT_PASSWORD_HASH_COST}, a cheaper
 * one for test servers. Verifying reads N from the stored hash, so either verifies both.
 */
export function scryptHasherAt(cost: number): PasswordHasher {
  if (cost === DEFAULT_PASSWORD_HASH_COST) return scryptHasher;
  const n = 2 ** cost;
  return { hash: (password) => hashAt(password, n), verify: verifyPassword, dummyHash: stored(randomBytes(16), randomBytes(KEY_LENGTH), n) };
}
