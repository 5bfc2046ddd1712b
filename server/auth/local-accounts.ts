/**
 * The local auth provider's accounts and sessions. It stands in for a hosted identity
 * provider, which keeps its own records: accounts are rows, not events, and a session is a
 * random token whose SHA-256 hash is stored (a stolen database does not yield live sessions).
 */
import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import type { Principal } from '../../events/principal.js';
import type { Clock, IdGenerator } from '../clock.js';
import { sqlState, UNIQUE_VIOLATION, type Database } from '../db/database.js';
import { SESSION_COOKIE, type AuthProvider, type AuthRequest } from './auth-provider.js';
import { hashPassword, verifyPassword } from './password-hash.js';

export const SESSION_DAYS = 30;

export const LOCAL_ACCOUNTS_SCHEMA = `
CREATE TABLE IF NOT EXISTS auth_accounts (
  uid text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  display_name text NOT NULL,
  password_hash text NOT NULL,
  email_verified boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS auth_sessions (
  token_hash text PRIMARY KEY,
  uid text NOT NULL REFERENCES auth_accounts (uid) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS auth_sessions_uid ON auth_sessions (uid);
`;

export const Email = z
  .string({ error: 'Email must be text.' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Enter a valid email address.' }).max(254, 'Email is too long.'));
export const Password = z
  .string({ error: 'Password must be text.' })
  .min(8, 'Password must be at least 8 characters.')
  .max(256, 'Password must be at most 256 characters.');
export const DisplayName = z
  .string({ error: 'Name must be text.' })
  .trim()
  .min(1, 'Name is required.')
  .max(80, 'Name must be at most 80 characters.');

export const RegisterInput = z.object({ email: Email, password: Password, displayName: DisplayName });
export const LoginInput = z.object({ email: Email, password: z.string({ error: 'Password must be text.' }).min(1, 'Password is required.') });

interface AccountRow {
  uid: string;
  email: string;
  display_name: string;
  password_hash: string;
  email_verified: boolean;
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export class LocalAccounts implements AuthProvider {
  readonly kind = 'local' as const;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly adminEmails: ReadonlySet<string>,
  ) {}

  static async open(db: Database, clock: Clock, ids: IdGenerator, adminEmails: ReadonlySet<string>): Promise<LocalAccounts> {
    await db.exec(LOCAL_ACCOUNTS_SCHEMA);
    return new LocalAccounts(db, clock, ids, adminEmails);
  }

  private principalOf(row: AccountRow): Principal {
    return {
      uid: row.uid,
      email: row.email,
      emailVerified: row.email_verified,
      displayName: row.display_name,
      admin: this.adminEmails.has(row.email),
      stripeRole: null,
    };
  }

  async register(input: z.infer<typeof RegisterInput>): Promise<{ principal: Principal; token: string }> {
    const uid = this.ids.uuid();
    const passwordHash = await hashPassword(input.password);
    try {
      await this.db.query(
        'INSERT INTO auth_accounts (uid, email, display_name, password_hash) VALUES ($1, $2, $3, $4)',
        [uid, input.email, input.displayName, passwordHash],
      );
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION) {
        throw new DomainError('aborted', 'An account with this email already exists. Log in instead.');
      }
      throw error;
    }
    const row: AccountRow = { uid, email: input.email, display_name: input.displayName, password_hash: passwordHash, email_verified: false };
    return { principal: this.principalOf(row), token: await this.startSession(uid) };
  }

  async login(input: z.infer<typeof LoginInput>): Promise<{ principal: Principal; token: string }> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM auth_accounts WHERE email = $1', [input.email]);
    const row = rows[0];
    if (!row) throw new DomainError('not-found', 'There is no account with this email. Check it, or sign up.');
    if (!(await verifyPassword(input.password, row.password_hash))) {
      throw new DomainError('unauthenticated', 'Wrong password. Try again or reset your password.');
    }
    return { principal: this.principalOf(row), token: await this.startSession(row.uid) };
  }

  async logout(token: string | undefined): Promise<void> {
    if (token) await this.db.query('DELETE FROM auth_sessions WHERE token_hash = $1', [hashToken(token)]);
  }

  private async startSession(uid: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const expires = new Date(this.clock.now().getTime() + SESSION_DAYS * 86_400_000);
    await this.db.query('INSERT INTO auth_sessions (token_hash, uid, expires_at) VALUES ($1, $2, $3)', [
      hashToken(token),
      uid,
      expires.toISOString(),
    ]);
    return token;
  }

  async principalFor(request: AuthRequest): Promise<Principal | null> {
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 200) return null;
    const { rows } = await this.db.query<AccountRow>(
      `SELECT a.* FROM auth_sessions s JOIN auth_accounts a ON a.uid = s.uid
        WHERE s.token_hash = $1 AND s.expires_at > $2`,
      [hashToken(token), this.clock.now().toISOString()],
    );
    return rows[0] ? this.principalOf(rows[0]) : null;
  }
}
