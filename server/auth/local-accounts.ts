/**
 * The local auth provider: accounts, sessions, e-mail verification and password reset. It
 * stands in for a hosted identity provider, which keeps its own records: accounts are rows,
 * not events. A session is a random token whose SHA-256 hash is stored, as are e-mailed
 * tokens, so a copy of the database yields no live session and no usable link. Ending
 * sessions is announced (`session-notices.ts`), so live sockets of those sessions close at once
 * in every server process.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import type { Principal } from '../../events/principal.js';
import type { Clock, IdGenerator } from '../clock.js';
import { sqlState, UNIQUE_VIOLATION, type Database } from '../../ports/database.js';
import { passwordResetMail, verificationMail } from '../mail/account-mails.js';
import type { Mailer } from '../mail/mailer.js';
import { SESSION_COOKIE, type AuthProvider, type AuthRequest } from './auth-provider.js';
import { ACCOUNT_TOKENS_SCHEMA, consumeToken, hashToken, issueToken, revokeTokens } from './account-tokens.js';
import { DUMMY_HASH, scryptHasher, type PasswordHasher } from './password-hash.js';
import { NewPassword } from './password-policy.js';
import { announceSessionsEnded } from './session-notices.js';

export const SESSION_DAYS = 30;
/** How long a client that signed in stays known to the account (see login-throttle.ts). */
export const KNOWN_CLIENT_DAYS = 90;

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
-- Clients (by a SHA-256 of their address, so a dump lists no addresses at a glance; an IPv4
-- address can still be found by trying them all) that signed in to an account.
CREATE TABLE IF NOT EXISTS auth_known_clients (
  uid text NOT NULL REFERENCES auth_accounts (uid) ON DELETE CASCADE,
  client_hash text NOT NULL,
  signed_in_at timestamptz NOT NULL,
  PRIMARY KEY (uid, client_hash)
);
${ACCOUNT_TOKENS_SCHEMA}
`;

export const Email = z
  .string({ error: 'Email must be text.' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'Enter a valid email address.' }).max(254, 'Email is too long.'));
export const DisplayName = z
  .string({ error: 'Name must be text.' })
  .trim()
  .min(1, 'Name is required.')
  .max(80, 'Name must be at most 80 characters.');
const CurrentPassword = z.string({ error: 'Password must be text.' }).min(1, 'Password is required.').max(256);
const Token = z.string({ error: 'The link is not valid.' }).min(1).max(200);

export const RegisterInput = z.object({ email: Email, password: NewPassword, displayName: DisplayName });
export const LoginInput = z.object({ email: Email, password: CurrentPassword });
export const ResetRequestInput = z.object({ email: Email });
export const ResetPasswordInput = z.object({ token: Token, password: NewPassword });
export const VerifyEmailInput = z.object({ token: Token });
export const UpdateProfileInput = z.object({ displayName: DisplayName });
export const ChangePasswordInput = z.object({ currentPassword: CurrentPassword, newPassword: NewPassword });
export const DeleteAccountInput = z.object({ password: CurrentPassword });

export const INVALID_VERIFY_LINK = 'This verification link is invalid or has expired. Sign in and press Resend to get a new one.';
/** Unknown, used, expired, or revoked by a newer link or a password change: one answer for all. */
export const INVALID_RESET_LINK = 'This reset link is invalid or has expired (only the newest one works). Ask for a new one.';
export const WRONG_PASSWORD = 'Wrong password. Try again or reset your password.';
/** A failed login, the same for an unknown address and a wrong password. */
export const LOGIN_FAILED = 'Incorrect email or password.';

interface AccountRow {
  uid: string;
  email: string;
  display_name: string;
  password_hash: string;
  email_verified: boolean;
}

export interface LocalAccountsOptions {
  db: Database;
  clock: Clock;
  ids: IdGenerator;
  adminEmails: ReadonlySet<string>;
  mailer: Mailer;
  publicUrl: string;
  /** Where failures of mail sent in the background are reported. */
  onMailError(error: unknown): void;
  /** Defaults to scrypt (password-hash.ts). */
  passwords?: PasswordHasher;
}

export class LocalAccounts implements AuthProvider {
  readonly kind = 'local' as const;

  private constructor(private readonly o: LocalAccountsOptions) {}

  static async open(options: LocalAccountsOptions): Promise<LocalAccounts> {
    await options.db.exec(LOCAL_ACCOUNTS_SCHEMA);
    return new LocalAccounts(options);
  }

  private get db() {
    return this.o.db;
  }

  private get passwords(): PasswordHasher {
    return this.o.passwords ?? scryptHasher;
  }

  private principalOf(row: AccountRow): Principal {
    return {
      uid: row.uid,
      email: row.email,
      emailVerified: row.email_verified,
      displayName: row.display_name,
      // ADMIN_EMAILS names addresses: the claim counts once the address is proven, or whoever
      // registered an admin's address first would read every map before the admin arrived.
      admin: row.email_verified && this.o.adminEmails.has(row.email),
      stripeRole: null,
    };
  }

  private async account(uid: string): Promise<AccountRow> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM auth_accounts WHERE uid = $1', [uid]);
    if (!rows[0]) throw new DomainError('unauthenticated', 'Unauthenticated');
    return rows[0];
  }

  private link(path: string, token: string): string {
    return new URL(`${path}?token=${encodeURIComponent(token)}`, this.o.publicUrl).toString();
  }

  /** Creates the account and signs it in from `client` (the request's address). */
  async register(input: z.infer<typeof RegisterInput>, client: string): Promise<{ principal: Principal; token: string }> {
    const uid = this.o.ids.uuid();
    const passwordHash = await this.passwords.hash(input.password);
    try {
      await this.db.query('INSERT INTO auth_accounts (uid, email, display_name, password_hash) VALUES ($1, $2, $3, $4)', [
        uid,
        input.email,
        input.displayName,
        passwordHash,
      ]);
    } catch (error) {
      if (sqlState(error) === UNIQUE_VIOLATION) {
        throw new DomainError('aborted', 'An account with this email already exists. Log in instead.');
      }
      throw error;
    }
    const row: AccountRow = { uid, email: input.email, display_name: input.displayName, password_hash: passwordHash, email_verified: false };
    // The account exists now: a mail server that is down must not turn that into an error.
    // The banner's Resend button sends the link again.
    await this.sendVerification(uid).catch(this.o.onMailError);
    return { principal: this.principalOf(row), token: await this.startSession(uid, client) };
  }

  /**
   * Signs in from `client`. An unknown address fails as a wrong password does: the same error,
   * and the same work (a verification against a dummy hash of the same cost), so neither the
   * answer nor its time tells a stranger which addresses have accounts.
   */
  async login(input: z.infer<typeof LoginInput>, client: string): Promise<{ principal: Principal; token: string }> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM auth_accounts WHERE email = $1', [input.email]);
    const row = rows[0];
    const matches = await this.passwords.verify(input.password, row?.password_hash ?? this.passwords.dummyHash ?? DUMMY_HASH);
    if (!row || !matches) throw new DomainError('unauthenticated', LOGIN_FAILED);
    return { principal: this.principalOf(row), token: await this.startSession(row.uid, client) };
  }

  async logout(token: string | undefined): Promise<void> {
    if (!token) return;
    const { rows } = await this.db.query<{ uid: string }>('DELETE FROM auth_sessions WHERE token_hash = $1 RETURNING uid', [hashToken(token)]);
    if (rows[0]) await announceSessionsEnded(this.db, { uid: rows[0].uid });
  }

  /** A new session for the account; `client` (the request's address) becomes known to it. */
  private async startSession(uid: string, client: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = this.o.clock.now();
    const expires = new Date(now.getTime() + SESSION_DAYS * 86_400_000);
    await this.db.query('INSERT INTO auth_sessions (token_hash, uid, expires_at) VALUES ($1, $2, $3)', [hashToken(token), uid, expires.toISOString()]);
    await this.db.query(
      `INSERT INTO auth_known_clients (uid, client_hash, signed_in_at) VALUES ($1, $2, $3)
       ON CONFLICT (uid, client_hash) DO UPDATE SET signed_in_at = EXCLUDED.signed_in_at`,
      [uid, hashToken(client), now.toISOString()],
    );
    await this.db.query('DELETE FROM auth_known_clients WHERE uid = $1 AND signed_in_at < $2', [uid, this.knownSince(now).toISOString()]);
    return token;
  }

  private knownSince(now: Date): Date {
    return new Date(now.getTime() - KNOWN_CLIENT_DAYS * 86_400_000);
  }

  /** Whether `client` signed in to the account of `email` within {@link KNOWN_CLIENT_DAYS}. */
  async isKnownClient(email: string, client: string): Promise<boolean> {
    const since = this.knownSince(this.o.clock.now());
    const { rows } = await this.db.query(
      `SELECT 1 FROM auth_known_clients k JOIN auth_accounts a ON a.uid = k.uid
        WHERE a.email = $1 AND k.client_hash = $2 AND k.signed_in_at > $3`,
      [email, hashToken(client), since.toISOString()],
    );
    return rows.length > 0;
  }

  async principalFor(request: AuthRequest): Promise<Principal | null> {
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 200) return null;
    const { rows } = await this.db.query<AccountRow>(
      `SELECT a.* FROM auth_sessions s JOIN auth_accounts a ON a.uid = s.uid
        WHERE s.token_hash = $1 AND s.expires_at > $2`,
      [hashToken(token), this.o.clock.now().toISOString()],
    );
    return rows[0] ? this.principalOf(rows[0]) : null;
  }

  async principalOfAccount(uid: string): Promise<Principal | null> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM auth_accounts WHERE uid = $1', [uid]);
    return rows[0] ? this.principalOf(rows[0]) : null;
  }

  // ---- e-mail verification ---------------------------------------------------------------

  async sendVerification(uid: string): Promise<void> {
    const row = await this.account(uid);
    if (row.email_verified) return;
    const token = await issueToken(this.db, uid, 'verify-email', this.o.clock.now());
    await this.o.mailer.send(verificationMail(row.email, row.display_name, this.link('/verify-email', token)));
  }

  /** Verifies the address the token was sent to; answers the account's uid. */
  async verifyEmail(input: z.infer<typeof VerifyEmailInput>): Promise<string> {
    const uid = await consumeToken(this.db, input.token, 'verify-email', this.o.clock.now());
    if (!uid) throw new DomainError('invalid-argument', INVALID_VERIFY_LINK);
    await this.db.query('UPDATE auth_accounts SET email_verified = true WHERE uid = $1', [uid]);
    return uid;
  }

  // ---- password reset --------------------------------------------------------------------

  /**
   * Mails a reset link if the address has an account. The answer and its timing are the same
   * either way (the mail goes out in the background), so the page reveals nothing.
   */
  async requestReset(input: z.infer<typeof ResetRequestInput>): Promise<void> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM auth_accounts WHERE email = $1', [input.email]);
    const row = rows[0];
    if (!row) return;
    void (async () => {
      const token = await issueToken(this.db, row.uid, 'reset-password', this.o.clock.now());
      await this.o.mailer.send(passwordResetMail(row.email, row.display_name, this.link('/reset', token)));
    })().catch(this.o.onMailError);
  }

  /**
   * Sets the new password, signs out every session, and starts a new one on `client` (the
   * link proves the mailbox, so that client becomes known to the account like a login's).
   * Using the link revokes every other reset link of the account (account-tokens.ts).
   */
  async resetPassword(input: z.infer<typeof ResetPasswordInput>, client: string): Promise<{ principal: Principal; token: string }> {
    const uid = await consumeToken(this.db, input.token, 'reset-password', this.o.clock.now());
    if (!uid) throw new DomainError('invalid-argument', INVALID_RESET_LINK);
    const passwordHash = await this.passwords.hash(input.password);
    // Opening the link proves the mailbox is theirs, so the address counts as verified too.
    await this.db.query('UPDATE auth_accounts SET password_hash = $2, email_verified = true WHERE uid = $1', [uid, passwordHash]);
    await this.signOutEverywhere(uid);
    return { principal: this.principalOf(await this.account(uid)), token: await this.startSession(uid, client) };
  }

  // ---- the account page --------------------------------------------------------------------

  async updateProfile(uid: string, input: z.infer<typeof UpdateProfileInput>): Promise<Principal> {
    await this.db.query('UPDATE auth_accounts SET display_name = $2 WHERE uid = $1', [uid, input.displayName]);
    return this.principalOf(await this.account(uid));
  }

  /**
   * Changes the password and signs out every other session (this one is kept), as people
   * expect after changing a password that may have leaked; their live sockets close too. A
   * reset link still in a mailbox would undo the change, so those are revoked as well.
   */
  async changePassword(uid: string, input: z.infer<typeof ChangePasswordInput>, currentSession: string | undefined): Promise<void> {
    const row = await this.account(uid);
    if (!(await this.passwords.verify(input.currentPassword, row.password_hash))) throw new DomainError('unauthenticated', WRONG_PASSWORD);
    await this.db.query('UPDATE auth_accounts SET password_hash = $2 WHERE uid = $1', [uid, await this.passwords.hash(input.newPassword)]);
    await revokeTokens(this.db, uid, 'reset-password');
    await this.db.query('DELETE FROM auth_sessions WHERE uid = $1 AND token_hash <> $2', [uid, hashToken(currentSession ?? '')]);
    await announceSessionsEnded(this.db, { uid });
  }

  async signOutEverywhere(uid: string): Promise<void> {
    await this.db.query('DELETE FROM auth_sessions WHERE uid = $1', [uid]);
    await announceSessionsEnded(this.db, { uid });
  }

  async checkPassword(uid: string, password: string): Promise<void> {
    if (!(await this.passwords.verify(password, (await this.account(uid)).password_hash))) {
      throw new DomainError('unauthenticated', WRONG_PASSWORD);
    }
  }

  /** Removes the account with its sessions and tokens (its maps are deleted by the caller). */
  async deleteAccount(uid: string): Promise<void> {
    await this.db.query('DELETE FROM auth_accounts WHERE uid = $1', [uid]);
    await announceSessionsEnded(this.db, { uid, everySession: true });
  }
}
