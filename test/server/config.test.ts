/** Configuration is validated at start-up: wrong values stop the process with a clear message. */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { openPGliteDatabase } from '../../server/db/pglite-database.js';
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

  it('selects KurrentDB for the event log when EVENTSTORE_URL is set, and fails loudly when it is unreachable', async () => {
    const config = loadConfig({ EVENTSTORE_URL: 'kurrentdb://127.0.0.1:1?tls=false' });
    expect(config.eventStoreUrl).toBe('kurrentdb://127.0.0.1:1?tls=false');
    const db = await openPGliteDatabase(undefined);
    await expect(openServices(config, { db, logger: { info: () => {}, error: () => {} } })).rejects.toThrow(/KurrentDB is unreachable/);
    await db.close();
  });
});
