/**
 * The services the app is built from (database, event store, mail, auth, files, clock), and
 * opening them from the configuration. The app and its plugins take them as an argument;
 * this module, not app.ts, defines their shape, so no plugin imports the app it is part of.
 */
import path from 'node:path';
import type { AuthProvider } from './auth/auth-provider.js';
import type { ClerkAuth } from './auth/clerk-auth.js';
import { localStripeKeys, type LocalStripeKeys } from './billing/local-stripe/local-stripe-keys.js';
import { LocalAccounts } from './auth/local-accounts.js';
import { scryptHasherAt } from './auth/password-hash.js';
import { randomIds, systemClock, type Clock, type IdGenerator } from './clock.js';
import type { Config } from './config.js';
import type { Database } from '../ports/database.js';
import { openDatabase } from './db/open-database.js';
import { withUpcasting, type EventStore } from '../ports/event-store.js';
import { upcast } from '../events/upcasters.js';
import type { FileStore } from './files/file-store.js';
import { LocalFileStore } from './files/local-file-store.js';
import { PostgresEventStore } from './event-store/postgres-event-store.js';
import type { Mailer } from './mail/mailer.js';
import { OutboxMailer } from './mail/outbox-mailer.js';
import { DEFAULT_AUTH_LIMITS, type AuthLimits } from './security/auth-limits.js';
import { RateLimiter } from './security/rate-limiter.js';

export interface Services {
  config: Config;
  db: Database;
  store: EventStore;
  auth: AuthProvider;
  /** The local accounts, when the local provider is in use (it has its own routes). */
  localAccounts: LocalAccounts | null;
  /** Clerk, when it is configured (it replaces the local accounts). */
  clerk: ClerkAuth | null;
  /** The embedded outbox, when no SMTP server is configured. */
  outbox: OutboxMailer | null;
  /** Outgoing mail: SMTP, or the outbox above. */
  mailer: Mailer;
  rateLimiter: RateLimiter;
  authLimits: AuthLimits;
  /** Uploaded files and built-in maps' SVGs (a folder under DATA_DIR). */
  files: FileStore;
  /** The local test Stripe's API key and webhook secret (made per installation), in local billing mode. */
  localStripe: LocalStripeKeys | null;
  clock: Clock;
  ids: IdGenerator;
}

export interface ServiceLogger {
  info(details: object, message: string): void;
  error(details: object, message: string): void;
}

const consoleLogger: ServiceLogger = {
  info: (details, message) => console.log(message, details),
  error: (details, message) => console.error(message, details),
};

export async function openServices(
  config: Config,
  options: { db?: Database; clock?: Clock; ids?: IdGenerator; logger?: ServiceLogger; authLimits?: AuthLimits } = {},
): Promise<Services & { close(): Promise<void> }> {
  const db = options.db ?? (await openDatabase(config));
  try {
    return await openServicesOn(db, config, options);
  } catch (error) {
    // Started here, so closed here: a half-opened PGlite would keep its files locked.
    if (!options.db) await db.close().catch(() => {});
    throw error;
  }
}

async function openServicesOn(
  db: Database,
  config: Config,
  options: { clock?: Clock; ids?: IdGenerator; logger?: ServiceLogger; authLimits?: AuthLimits },
): Promise<Services & { close(): Promise<void> }> {
  const clock = options.clock ?? systemClock;
  const ids = options.ids ?? randomIds;
  const logger = options.logger ?? consoleLogger;
  // First, before anything that holds a connection: a DATA_DIR it cannot write stops the start.
  const localStripe = config.stripe.mode === 'local' ? await localStripeKeys(config.dataDir) : null;
  // KurrentDB's client (gRPC and its protocol buffers), Clerk's and nodemailer are loaded only
  // when configured: some 25 MB that the embedded mode would hold for nothing.
  const recorded: EventStore = config.eventStoreUrl
    ? await (await import('./event-store/kurrentdb-event-store.js')).openKurrentDBEventStore(config.eventStoreUrl, {
        onSubscriptionRetry: (error, attempt, delayMs) =>
          logger.error({ err: error, attempt, delayMs }, 'KurrentDB subscription dropped; resubscribing'),
      })
    : await PostgresEventStore.open(db);
  // Every reader reads old events as today's schemas take them (events/upcasters.ts).
  const store = withUpcasting(recorded, upcast);
  const outbox = config.smtpUrl ? null : await OutboxMailer.open(db, logger);
  const mailer: Mailer = outbox ?? (await import('./mail/smtp-mailer.js')).createSmtpMailer(config.smtpUrl!, config.mailFrom);
  const rateLimiter = await RateLimiter.open(db, clock);
  const clerk = config.clerk ? new (await import('./auth/clerk-auth.js')).ClerkAuth(config.clerk) : null;
  const localAccounts = clerk
    ? null
    : await LocalAccounts.open({
        db,
        clock,
        ids,
        adminEmails: config.adminEmails,
        mailer,
        publicUrl: config.publicUrl,
        onMailError: (error) => logger.error({ err: error }, 'sending mail failed'),
        passwords: scryptHasherAt(config.passwordHashCost),
      });
  return {
    config,
    db,
    store,
    auth: (clerk ?? localAccounts)!,
    localAccounts,
    clerk,
    outbox,
    mailer,
    rateLimiter,
    authLimits: options.authLimits ?? DEFAULT_AUTH_LIMITS,
    files: new LocalFileStore(path.join(config.dataDir, 'files'), () => clock.now()),
    localStripe,
    clock,
    ids,
    async close() {
      await store.close();
      await db.close();
    },
  };
}
