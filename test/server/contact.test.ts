/** `POST /api/contact`: the contact form's messages recorded as events and mailed to the team. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTACT_MESSAGE_RECEIVED, SPAM_REFUSED_MESSAGE } from '../../events/contact.js';
import { contactMail } from '../../server/mail/contact-mail.js';
import { databaseTargets } from '../support/databases.js';
import { registerUser, startTestServer, type TestServer } from '../support/test-server.js';

const TEAM = 'team@mapfold.test';

describe.each(databaseTargets)('POST /api/contact on $name', (target) => {
  let server: TestServer;
  let clientCount = 0;
  beforeAll(async () => {
    // Behind a trusted proxy each test can be its own client address, so limits do not mix.
    server = await startTestServer(target, { env: { CONTACT_EMAIL: TEAM, TRUST_PROXY: 'loopback' } });
  });
  afterAll(() => server.close());

  const newClient = () => `203.0.113.${++clientCount}`;
  const valid = (overrides: Record<string, unknown> = {}) => {
    const sentAt = Date.now();
    return {
      name: 'Priya Raman',
      email: 'priya@harbourmall.example',
      topic: 'custom',
      message: 'We run a three-floor mall and would like a wayfinding map with 140 shops.',
      website: '',
      renderedAt: sentAt - 12_000,
      sentAt,
      ...overrides,
    };
  };
  const send = async (data: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': newClient(), ...headers },
      body: JSON.stringify({ data }),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const contactEvents = () => server.services.store.readAll({ filter: { streamPrefixes: ['contact-'] } });
  const mailsToTeam = async () => (await server.services.outbox!.list(500)).filter((mail) => mail.to === TEAM);
  /**
   * The number of contact events once the log has caught up with everything sent so far. On
   * PostgreSQL an event shows only once no older transaction of the whole server is open, and
   * other test databases share that server, so a count read straight after a send can miss it
   * and take it in later. This sends one valid message from a fresh address and waits until it
   * shows: everything appended before it shows by then too (the log reads in transaction order).
   */
  const settledContactEvents = async () => {
    const answer = await send(valid({ message: 'Settling message: the log has caught up once this shows.' }));
    expect(answer.status).toBe(200);
    const settling = answer.body.result.messageId as string;
    return vi.waitFor(
      async () => {
        const events = await contactEvents();
        if (!events.some((e) => (e.data as { messageId: string }).messageId === settling)) throw new Error('The settling message is not in the log yet.');
        return events.length;
      },
      { timeout: 10_000 },
    );
  };

  it('given a valid message, when sent signed out, then it is recorded on its own stream and mailed to the team', async () => {
    const before = (await contactEvents()).length;
    const answer = await send(valid());
    expect(answer.status).toBe(200);
    const messageId = answer.body.result.messageId as string;
    expect(messageId).toMatch(/^[0-9a-f-]{36}$/);

    // Read until it shows (PostgreSQL: see the next test).
    const events = await vi.waitFor(
      async () => {
        const recorded = (await contactEvents()).slice(before);
        if (recorded.length === 0) throw new Error('The message is not in the log yet.');
        return recorded;
      },
      { timeout: 10_000 },
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      stream: `contact-${messageId}`,
      type: CONTACT_MESSAGE_RECEIVED,
      data: { messageId, name: 'Priya Raman', email: 'priya@harbourmall.example', topic: 'custom', uid: null },
      metadata: { userId: null },
    });
    // The spam signals are not part of the record.
    expect(events[0]!.data).not.toHaveProperty('website');

    const mail = (await mailsToTeam()).find((m) => m.text.includes(messageId));
    expect(mail?.subject).toBe('[Contact · Custom work] Priya Raman');
    expect(mail?.text).toContain('From: Priya Raman <priya@harbourmall.example>');
    expect(mail?.text).toContain('wayfinding map with 140 shops');
  });

  it('records the uid of a signed-in sender', async () => {
    const user = await registerUser(server);
    const answer = await send(valid({ topic: 'support', message: 'The second floor of my map does not show on phones.' }), { cookie: user.cookie });
    expect(answer.status).toBe(200);
    // On PostgreSQL the log shows an event once no older transaction of the whole server is
    // open, and other test databases share that server: wait for it rather than read once.
    const event = await vi.waitFor(
      async () => {
        const found = (await contactEvents()).find((e) => (e.data as { messageId: string }).messageId === answer.body.result.messageId);
        if (!found) throw new Error('The message is not in the log yet.');
        return found;
      },
      { timeout: 10_000 },
    );
    expect(event.data).toMatchObject({ uid: user.uid, topic: 'support' });
    expect(event.metadata.userId).toBe(user.uid);
  });

  it.each([
    ['name', { name: '  ' }, 'name: Enter your name.'],
    ['name', { name: 'x'.repeat(101) }, 'name: Keep your name under 100 characters.'],
    ['email', { email: 'priya-at-harbourmall' }, 'email: Enter a valid e-mail address, like name@company.com.'],
    ['email', { email: '' }, 'email: Enter your e-mail address.'],
    ['topic', { topic: 'lottery' }, 'topic: Choose what your message is about.'],
    ['message', { message: 'Hi there' }, 'message: Tell us a little more: at least 10 characters.'],
    ['message', { message: 'a'.repeat(5001) }, 'message: Keep your message under 5000 characters.'],
    ['message', { message: 'Cheap: https://a.example https://b.example http://c.example www.d.example' }, 'message: Please include at most 3 links.'],
  ])('refuses a bad %s with its own message, storing and mailing nothing', async (_field, overrides, message) => {
    const [events, mails] = [await settledContactEvents(), (await mailsToTeam()).length];
    const answer = await send(valid(overrides));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({ status: 'INVALID_ARGUMENT', message });
    // The next settling message is the only one recorded and mailed since.
    expect(await settledContactEvents()).toBe(events + 1);
    expect((await mailsToTeam()).length).toBe(mails + 1);
  });

  it.each([
    ['the honeypot is filled in', { website: 'https://seo-deals.example' }],
    ['it is sent under 3 seconds after the form appeared', { renderedAt: Date.now() - 1200, sentAt: Date.now() }],
  ])('refuses a suspected bot (%s) with a generic 400, storing and mailing nothing', async (_why, overrides) => {
    const [events, mails] = [await settledContactEvents(), (await mailsToTeam()).length];
    const answer = await send(valid(overrides));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual({ status: 'INVALID_ARGUMENT', message: SPAM_REFUSED_MESSAGE });
    expect(await settledContactEvents()).toBe(events + 1);
    expect((await mailsToTeam()).length).toBe(mails + 1);
  });

  it('allows 5 messages an hour from one address, then answers 429 resource-exhausted', async () => {
    const ip = newClient();
    for (let i = 0; i < 5; i++) expect((await send(valid(), { 'x-forwarded-for': ip })).status).toBe(200);
    const events = await settledContactEvents();
    const refused = await send(valid(), { 'x-forwarded-for': ip });
    expect(refused.status).toBe(429);
    expect(refused.body.error.status).toBe('RESOURCE_EXHAUSTED');
    // Another address is not affected: the settling message, from its own, is the one recorded.
    expect(await settledContactEvents()).toBe(events + 1);
  });

  it('refuses a post from another site (CSRF) before anything runs', async () => {
    const events = await settledContactEvents();
    const answer = await send(valid(), { origin: 'https://evil.example' });
    expect(answer.status).toBe(403);
    expect(answer.body.error.status).toBe('PERMISSION_DENIED');
    const fetchSite = await send(valid(), { 'sec-fetch-site': 'cross-site' });
    expect(fetchSite.status).toBe(403);
    expect(await settledContactEvents()).toBe(events + 1);
    // The site's own pages pass.
    expect((await send(valid(), { origin: server.url })).status).toBe(200);
  });

  it('refuses a body that is not the form', async () => {
    expect((await send(null)).status).toBe(400);
    expect((await send(valid({ renderedAt: undefined }))).body.error.message).toBe('renderedAt: Missing form timing.');
  });
});

describe('the team mail', () => {
  it('lets the team reply to the sender, and keeps line breaks out of the subject', () => {
    const mail = contactMail(
      TEAM,
      { messageId: 'm-1', name: 'Eve\r\nBcc: all@example.com', email: 'eve@example.com', topic: 'sales', message: '<b>Hello</b> there, pricing please', uid: null },
      new Date('2026-01-05T10:00:00Z'),
    );
    expect(mail.replyTo).toBe('eve@example.com');
    expect(mail.to).toBe(TEAM);
    expect(mail.subject).toBe('[Contact · Sales & pricing] Eve Bcc: all@example.com');
    expect(mail.html).toContain('&lt;b&gt;Hello&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Hello</b>');
  });
});
