/** Configuration is validated at start-up: wrong values stop the process with a clear message. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { scryptHasherAt } from '../../server/auth/password-hash.js';
import { openTestPGlite } from '../support/pglite-template.js';
import { openServices } from '../../server/services.js';

describe('configuration', () => {
  it('runs on embedded defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, dataDir: './data', databaseUrl: null, eventStoreUrl: null, smtpUrl: null, clerk: null });
  });

  it('refuses malformed values, naming the variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ EVENTSTORE_URL: 'http://localhost:2113' })).toThrow(/EVENTSTORE_URL: must be a KurrentDB connection string/);
    expect(() => loadConfig({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ CLERK_PUBLISHABLE_KEY: 'pk_test_x' })).toThrow(/set both CLERK_PUBLISHABLE_KEY and CLERK_SECRET_KEY/);
  });

  it('keeps published maps in PUBLIC_MAP_CACHE_BYTES of memory, 64 MB unless set', () => {
    expect(loadConfig({}).publicMapCacheBytes).toBe(64 * 1024 * 1024);
    expect(loadConfig({ PUBLIC_MAP_CACHE_BYTES: '268435456' }).publicMapCacheBytes).toBe(256 * 1024 * 1024);
    expect(() => loadConfig({ PUBLIC_MAP_CACHE_BYTES: 'plenty' })).toThrow(/PUBLIC_MAP_CACHE_BYTES: must be a number of bytes/);
    expect(() => loadConfig({ PUBLIC_MAP_CACHE_BYTES: '1000' })).toThrow(/PUBLIC_MAP_CACHE_BYTES: must be at least 1 MB/);
    expect(() => loadConfig({ PUBLIC_MAP_CACHE_BYTES: '1.5' })).toThrow(/PUBLIC_MAP_CACHE_BYTES: must be a whole number of bytes/);
  });

  it('hashes passwords at scrypt N=2^17 unless a test server sets PASSWORD_HASH_COST, which production refuses below 17', async () => {
    expect(loadConfig({}).passwordHashCost).toBe(17);
    expect(loadConfig({ NODE_ENV: 'production' }).passwordHashCost).toBe(17);
    expect(loadConfig({ PASSWORD_HASH_COST: '12' }).passwordHashCost).toBe(12);
    expect(loadConfig({ NODE_ENV: 'production', PASSWORD_HASH_COST: '18' }).passwordHashCost).toBe(18);
    expect(() => loadConfig({ NODE_ENV: 'production', PASSWORD_HASH_COST: '12' })).toThrow(/PASSWORD_HASH_COST below 17 is for test servers only/);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '9' })).toThrow(/PASSWORD_HASH_COST: must be at least 10/);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '21' })).toThrow(/PASSWORD_HASH_COST: must be at most 20/);
    expect(() => loadConfig({ PASSWORD_HASH_COST: '12.5' })).toThrow(/PASSWORD_HASH_COST: must be a whole number/);
    // The hashes say their N, so a lower cost verifies against either, and an unknown address's dummy hash has the same N.
    const cheap = scryptHasherAt(12);
    const stored = await cheap.hash('a long enough password');
    expect(stored.split('$').slice(0, 4)).toEqual(['scrypt', '4096', '8', '1']);
    expect(cheap.dummyHash!.split('$').slice(0, 4)).toEqual(['scrypt', '4096', '8', '1']);
    expect(await scryptHasherAt(17).verify('a long enough password', stored)).toBe(true);
    expect(scryptHasherAt(17).dummyHash!.split('$')[1]).toBe('131072');
  });

  it('takes imports up to IMPORT_LIMIT bytes, 64 MB unless set', () => {
    expect(loadConfig({}).importLimit).toBe(64 * 1024 * 1024);
    expect(loadConfig({ IMPORT_LIMIT: '1048576' }).importLimit).toBe(1_048_576);
    expect(() => loadConfig({ IMPORT_LIMIT: 'lots' })).toThrow(/IMPORT_LIMIT: must be a number of bytes/);
    expect(() => loadConfig({ IMPORT_LIMIT: '10' })).toThrow(/IMPORT_LIMIT: must be at least 1024 bytes/);
  });

  it("mails the contact form's messages to CONTACT_EMAIL, hello@mapfold.local unless set", () => {
    expect(loadConfig({}).contactEmail).toBe('hello@mapfold.local');
    expect(loadConfig({ CONTACT_EMAIL: 'team@mapfold.com' }).contactEmail).toBe('team@mapfold.com');
    expect(() => loadConfig({ CONTACT_EMAIL: 'the team' })).toThrow(/CONTACT_EMAIL: must be an e-mail address/);
  });

  it('sends analytics to PostHog only when POSTHOG_KEY is set, at the US cloud unless POSTHOG_HOST says otherwise', () => {
    expect(loadConfig({}).posthog).toBeNull();
    expect(loadConfig({ POSTHOG_HOST: 'https://eu.i.posthog.com' }).posthog).toBeNull();
    expect(loadConfig({ POSTHOG_KEY: 'phc_abc' }).posthog).toEqual({ key: 'phc_abc', host: 'https://us.i.posthog.com' });
    expect(loadConfig({ POSTHOG_KEY: 'phc_abc', POSTHOG_HOST: 'https://eu.i.posthog.com/' }).posthog).toEqual({ key: 'phc_abc', host: 'https://eu.i.posthog.com' });
    expect(() => loadConfig({ POSTHOG_KEY: 'phc_abc', POSTHOG_HOST: 'eu.i.posthog.com' })).toThrow(/POSTHOG_HOST/);
    expect(() => loadConfig({ POSTHOG_KEY: '   ' })).toThrow(/POSTHOG_KEY/);
  });

  it('runs billing against the local test Stripe by default, and in production only when LOCAL_STRIPE=1 says so', () => {
    const stripeKeys = { STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };
    expect(loadConfig({}).stripe).toMatchObject({ mode: 'local', secretKey: null, webhookSecret: null });
    expect(loadConfig({ NODE_ENV: 'development' }).stripe.mode).toBe('local');
    expect(loadConfig({ NODE_ENV: 'production' }).stripe.mode).toBe('off');
    expect(loadConfig({ NODE_ENV: 'production', LOCAL_STRIPE: '1' }).stripe.mode).toBe('local');
    expect(loadConfig({ LOCAL_STRIPE: '0' }).stripe.mode).toBe('off');
    // An empty variable is unset, as everywhere.
    expect(loadConfig({ NODE_ENV: 'production', LOCAL_STRIPE: '' }).stripe.mode).toBe('off');
    expect(loadConfig({ NODE_ENV: 'production', ...stripeKeys }).stripe).toMatchObject({ mode: 'stripe', secretKey: 'sk_live_abc', webhookSecret: 'whsec_abc' });
    expect(loadConfig(stripeKeys).stripe.mode).toBe('stripe');
    expect(() => loadConfig({ LOCAL_STRIPE: 'yes' })).toThrow(/LOCAL_STRIPE: must be 1 \(run the local test Stripe\) or 0 \(do not\)/);
    expect(() => loadConfig({ ...stripeKeys, LOCAL_STRIPE: '1' })).toThrow(/LOCAL_STRIPE=1 runs the local test Stripe instead of Stripe/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'sk_live_abc' })).toThrow(/STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY/);
    // A webhook secret alone would once have signed the local test Stripe's events; now it is a mistake.
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow(/STRIPE_WEBHOOK_SECRET is used only with STRIPE_SECRET_KEY/);
  });

  it('accepts unchecked purchase codes locally, never in production unless LOCAL_LICENCES=1 says so, and checks them with a marketplace token', () => {
    expect(loadConfig({}).envato).toMatchObject({ mode: 'local', token: null });
    expect(loadConfig({ NODE_ENV: 'development' }).envato.mode).toBe('local');
    expect(loadConfig({ NODE_ENV: 'production' }).envato.mode).toBe('off');
    expect(loadConfig({ NODE_ENV: 'production', LOCAL_LICENCES: '' }).envato.mode).toBe('off');
    expect(loadConfig({ NODE_ENV: 'production', LOCAL_LICENCES: '1' }).envato.mode).toBe('local');
    expect(loadConfig({ LOCAL_LICENCES: '0' }).envato.mode).toBe('off');
    expect(loadConfig({ NODE_ENV: 'production', ENVATO_TOKEN: 'token' }).envato).toMatchObject({ mode: 'marketplace', token: 'token' });
    expect(() => loadConfig({ LOCAL_LICENCES: 'yes' })).toThrow(/LOCAL_LICENCES: must be 1/);
    expect(() => loadConfig({ ENVATO_TOKEN: 'token', LOCAL_LICENCES: '1' })).toThrow(/LOCAL_LICENCES=1 accepts purchase codes without the marketplace/);
  });

  it('selects KurrentDB for the event log when EVENTSTORE_URL is set, and fails loudly when it is unreachable', async () => {
    const config = loadConfig({ EVENTSTORE_URL: 'kurrentdb://127.0.0.1:1?tls=false' });
    expect(config.eventStoreUrl).toBe('kurrentdb://127.0.0.1:1?tls=false');
    const db = await openTestPGlite();
    await expect(openServices(config, { db, logger: { info: () => {}, error: () => {} } })).rejects.toThrow(/KurrentDB is unreachable/);
    await db.close();
  });
});
