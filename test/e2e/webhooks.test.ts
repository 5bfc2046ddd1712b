/**
 * Webhooks in Chromium (issue 30 item 2): on /account, add a webhook to a receiver on loopback
 * (ALLOW_LOOPBACK_TARGETS=1), copy its secret once, "Send test event" and see the delivery in
 * its log (delivered, 200), Redeliver it, and delete it; the map's own webhooks in the editor's
 * Settings; a webhook disabled after failing deliveries says so and is turned back on, on both.
 * Screenshots at 1280 and 375 px; neither page scrolls sideways at 375.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInContext, startBrowserSession } from '../support/browser.js';
import type { Locator, Page } from 'playwright-core';
import { formatPosition } from '../../events/position.js';
import { webhooksDecider } from '../../events/webhooks.js';
import { decideCommand } from '../../server/commands/command-handler.js';
import { call, createMapAs, projected, registerUser, type TestServer, type TestUser } from '../support/test-server.js';
import { lookAt } from './support/look-at.js';

describe('webhooks in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let receiver: Server;
  let hookUrl: string;
  const received: string[] = [];

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => {
        received.push(body);
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    session = await startBrowserSession({ env: { ALLOW_LOOPBACK_TARGETS: '1' } });
    ({ server } = session);
  });
  afterAll(async () => {
    await session?.close();
    await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  });

  it('adds a webhook on /account, sends a test event, redelivers it and deletes it', async () => {
    const user = await registerUser(server);
    const context = await signedInContext(session.browser, server, user);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    await page.goto('/account#webhooks');
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByText('No webhooks yet.').waitFor();
    await section.getByLabel('Endpoint URL').fill(hookUrl);
    await section.getByRole('checkbox', { name: 'Comment added' }).check();
    await section.getByRole('button', { name: 'Add webhook' }).click();
    const fresh = section.getByRole('region', { name: 'New webhook’s signing secret' });
    const secret = await fresh.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await fresh.getByRole('button', { name: 'Copy' }).click();
    await fresh.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await fresh.getByRole('button', { name: 'Done' }).click();

    const item = section.getByRole('listitem').filter({ hasText: hookUrl });
    await item.getByText('Map published · Comment added').waitFor();
    await item.getByRole('button', { name: 'Send test event' }).click();
    await item.getByText('Test event sent.').waitFor();
    await item.getByText('Delivery log (1)').click();
    const row = item.getByRole('row').filter({ hasText: 'webhook.test' });
    await row.getByText('delivered').waitFor();
    await row.getByRole('cell', { name: '200' }).waitFor();
    expect(received.some((body) => JSON.parse(body).type === 'webhook.test')).toBe(true);
    await lookAt(page, 'webhooks-account-1280', { fullPage: true });

    await row.getByRole('button', { name: 'Redeliver' }).click();
    await item.getByText('Sent again.').waitFor();
    await item.getByText('Delivery log (2)').waitFor();

    await page.setViewportSize({ width: 375, height: 800 });
    await item.getByText('Delivery log (2)').waitFor();
    await lookAt(section, 'webhooks-account-375');
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        // The delivery log's table scrolls inside its own box.
        .filter((el) => el.getBoundingClientRect().right > 376 && !el.closest('.webhook-log__scroll'))
        .map((el) => `${el.tagName}.${el.className} ${Math.round(el.getBoundingClientRect().right)}`)
        .slice(0, 8),
    );
    expect(wide).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    await item.getByRole('button', { name: `Delete the webhook for ${hookUrl}` }).click();
    await page.getByRole('dialog', { name: 'Delete this webhook?' }).getByRole('button', { name: 'Delete webhook' }).click();
    await section.getByText('No webhooks yet.').waitFor();
    await context.close();
  });

  it('shows a map’s webhooks in the editor’s settings', async () => {
    const user = await registerUser(server);
    const mapId = await createMapAs(server, user, 'Webhook settings mall');
    const context = await signedInContext(session.browser, server, user);
    const page = await context.newPage();
    await page.goto(`/maps/${mapId}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const section = page.getByRole('region', { name: 'Webhooks' });
    await section.getByText('No webhooks yet.').waitFor();
    await section.getByLabel('Endpoint URL').fill(hookUrl);
    await section.getByRole('button', { name: 'Add webhook' }).click();
    await section.getByRole('textbox', { name: 'Signing secret' }).waitFor();
    await section.getByRole('listitem').filter({ hasText: hookUrl }).getByText('Map published · Locations changed').waitFor();
    await section.scrollIntoViewIfNeeded();
    await lookAt(page, 'webhooks-editor-1280');
    await context.close();
  });

  /** A webhook of `user`'s (the map's, with `mapId`), disabled as the delivery worker does after a long run of failures. */
  async function disabledWebhook(user: TestUser, mapId?: string): Promise<string> {
    const made = await call(server, 'createWebhook', { ...(mapId ? { mapId } : {}), url: hookUrl, events: ['map.published'] }, user);
    expect(made.status).toBe(200);
    const webhookId = made.body.result.webhookId as string;
    const outcome = await decideCommand(
      { store: server.services.store, ids: server.services.ids },
      webhooksDecider,
      user.uid,
      { type: 'DisableWebhook', data: { webhookId, uid: user.uid, failures: 20, disabled: new Date().toISOString() } },
      undefined,
      { principal: null, now: new Date(), correlationId: `webhook-disabled-${webhookId}`, commandId: server.services.ids.uuid() },
    );
    await projected(server, formatPosition(outcome.position!));
    return webhookId;
  }

  /** The disabled webhook in `section`: its note and button, then turned back on. */
  async function turnBackOn(page: Page, section: Locator, name: string) {
    const item = section.getByRole('listitem').filter({ hasText: hookUrl });
    await item.getByText('Disabled', { exact: true }).waitFor();
    await item.getByText(/Turned off after its deliveries kept failing/).waitFor();
    expect(await item.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    await item.scrollIntoViewIfNeeded();
    await lookAt(page, `webhooks-${name}-disabled-1280`);
    await page.setViewportSize({ width: 375, height: 800 });
    await item.scrollIntoViewIfNeeded();
    await lookAt(page, `webhooks-${name}-disabled-375`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await item.getByRole('button', { name: `Turn back on the webhook for ${hookUrl}` }).click();
    await item.getByText('Turned back on.').waitFor();
    await item.getByText('Active', { exact: true }).waitFor();
    expect(await item.getByText(/Turned off after/).count()).toBe(0);
    expect(await item.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(false);
    await lookAt(page, `webhooks-${name}-on-again-375`);
  }

  it('turns a disabled webhook back on, on /account and in the editor’s settings', async () => {
    const user = await registerUser(server);
    await disabledWebhook(user);
    const mapId = await createMapAs(server, user, 'Disabled webhook mall');
    await disabledWebhook(user, mapId);
    const context = await signedInContext(session.browser, server, user);
    const page = await context.newPage();
    await page.goto('/account#webhooks');
    await turnBackOn(page, page.getByRole('region', { name: 'Webhooks' }), 'account');

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/maps/${mapId}`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await turnBackOn(page, page.getByRole('region', { name: 'Webhooks' }), 'editor');
    const listed = await call(server, 'listWebhooks', {}, user);
    expect(listed.body.result.webhooks.map((w: { disabled: boolean }) => w.disabled)).toEqual([false]);
    await context.close();
  });
});
