/**
 * The local auth provider: accounts, sessions, e-mail verification and password reset. It
 * stands in for a hosted identity provider, which keeps its own records: accounts are rows,
 * not events. A session is a random token whose SHA-256 hash is stored, as are e-mailed
 * tokens, so a copy of the database yields no live session and no usable link.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import type { Principal } from '../../events/principal.js';
import type { Clock, IdGenerator } from '../clock.js';
import { sqlState, UNIQUE_VIOLATION, type Database } from '../db/database.js';
import { passwordResetMail, verificationMail } from '../mail/account-mails.js';
import type { Mailer } from '../mail/mailer.js';
import { SESSION_COOKIE, type AuthProvider, type AuthRequest } from './auth-provider.js';
import { ACCOUNT_TOKENS_SCHEMA, consumeToken, hashToken, issueToken } from './account-tokens.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { NewPassword } from './password-policy.js';

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
export const INVALID_RESET_LINK = 'This reset link is invalid or has expired. Ask for a new one.';
export const WRONG_PASSWORD = 'Wrong password. Try again or reset your password.';

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

  async register(input: z.infer<typeof RegisterInput>): Promise<{ principal: Principal; token: string }> {
    const uid = this.o.ids.uuid();
    const passwordHash = await hashPassword(input.password);
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
    return { principal: this.principalOf(row), token: await this.startSession(uid) };
  }

  async login(input: z.infer<typeof LoginInput>): Promise<{ principal: Principal; token: string }> {
    const { rows } = await this.db.query<AccountRow>('SELECT * FROM auth_accounts WHERE email = $1', [input.email]);
    const row = rows[0];
    if (!row) throw new DomainError('not-found', 'There is no account with this email. Check it, or sign up.');
    if (!(await verifyPassword(input.password, row.password_hash))) throw new DomainError('unauthenticated', WRONG_PASSWORD);
    return { principal: this.principalOf(row), token: await this.startSession(row.uid) };
  }

  async logout(token: string | undefined): Promise<void> {
    if (token) await this.db.query('DELETE FROM auth_sessions WHERE token_hash = $1', [hashToken(token)]);
  }

  private async startSession(uid: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const expires = new Date(this.o.clock.now().getTime() + SESSION_DAYS * 86_400_000);
    await this.db.query('INSERT INTO auth_sessions (token_hash, uid, expires_at) VALUES ($1, $2, $3)', [hashToken(token), uid, expires.toISOString()]);
    return token;
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

  /** Sets the new password, signs out every session, and starts a new one here. */
  async resetPassword(input: z.infer<typeof ResetPasswordInput>): Promise<{ principal: Principal; token: string }> {
    const uid = await consumeToken(this.db, input.token, 'reset-password', this.o.clock.now());
    if (!uid) throw new DomainError('invalid-argument', INVALID_RESET_LINK);
    const passwordHash = await hashPassword(input.password);
    // Opening the link proves the mailbox is theirs, so the address counts as verified too.
    await this.db.query('UPDATE auth_accounts SET password_hash = $2, email_verified = true WHERE uid = $1', [uid, passwordHash]);
    await this.db.query('DELETE FROM auth_sessions WHERE uid = $1', [uid]);
    return { principal: this.principalOf(await this.account(uid)), token: await this.startSession(uid) };
  }

  // ---- the account page --------------------------------------------------------------------

  async updateProfile(uid: string, input: z.infer<typeof UpdateProfileInput>): Promise<Principal> {
    await this.db.query('UPDATE auth_accounts SET display_name = $2 WHERE uid = $1', [uid, input.displayName]);
    return this.principalOf(await this.account(uid));
  }

  /** Changes the password and signs out every other session (this one is kept). */
  async changePassword(uid: string, input: z.infer<typeof ChangePasswordInput>, currentSession: string | undefined): Promise<void> {
    const row = await this.account(uid);
    if (!(await verifyPassword(input.currentPassword, row.password_hash))) throw new DomainError('unauthenticated', WRONG_PASSWORD);
    await this.db.query('UPDATE auth_accounts SET password_hash = $2 WHERE uid = $1', [uid, await hashPassword(input.newPassword)]);
    await this.db.query('DELETE FROM auth_sessions WHERE uid = $1 AND token_hash <> $2', [uid, hashToken(currentSession ?? '')]);
  }

  async signOutEverywhere(uid: string): Promise<void> {
    await this.db.query('DELETE FROM auth_sessions WHERE uid = $1', [uid]);
  }

  async checkPassword(uid: string, password: string): Promise<void> {
    if (!(await verifyPassword(password, (await this.account(uid)).password_hash))) {
      throw new DomainError('unauthenticated', WRONG_PASSWORD);
    }
  }

  /** Removes the account with its sessions and tokens (its maps are deleted by the caller). */
  async deleteAccount(uid: string): Promise<void> {
    await this.db.query('DELETE FROM auth_accounts WHERE uid = $1', [uid]);
  }
}
