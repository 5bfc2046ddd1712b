/**
 * Billing in Chromium (issue 5), with no network: /maps#subscribe, Basic for 3 maps monthly
 * through the local test checkout, the slot meter at 0/3 and the Active badge; a registered
 * map published from the editor into a Basic slot, 1/3; cancelled in the local billing page,
 * then the Canceled badge. Screenshots of the modal at phone and desktop sizes on the way.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '../../events/streams.js';
import { signedInContext, startBrowserSession } from '../support/browser.js';
import { call, projected, registerUser, type TestServer } from '../support/test-server.js';
import { completeCheckout, openSubscribe, planCard, startCheckout } from './support/subscribe.js';
import { lookAt } from './support/look-at.js';

const TIMEOUT = 20_000;

const basicCard = (page: Page) => planCard(page, 'Basic');

describe('billing in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server, browser } = session);
  });
  afterAll(() => session?.close());

  it('subscribes through the local checkout, publishes into a slot and cancels', { timeout: 180_000 }, async () => {
    const owner = await registerUser(server);
    const made = await call(server, 'createMap', { title: 'Harbour Market' }, owner);
    await projected(server, made.body.position);
    const mapId = made.body.result as string;
    // A licence bought a year ago: its 6 months of Basic are over, so the map needs a slot.
    const registered = new Date(Date.now() - 365 * 24 * 3600 * 1000);
    await server.services.store.append(
      streams.licence('4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b'),
      [
        {
          id: server.services.ids.uuid(),
          type: 'LicenceRegistered',
          data: {
            code: '4e5f6a7b-8c9d-4e0f-9a1b-2c3d4e5f6a7b',
            mapId,
            uid: owner.uid,
            verified: false,
            item: null,
            registeredAt: registered.toISOString(),
            basicUntil: new Date(registered.getTime() + 183 * 24 * 3600 * 1000).toISOString(),
          },
          metadata: { userId: owner.uid, at: registered.toISOString(), correlationId: 'e2e', causationId: 'e2e' },
        },
      ],
      'no_stream',
    );

    const context = await signedInContext(browser, server, owner);
    const page = await context.newPage();
    await openSubscribe(page);
    await lookAt(page, 'e2e-subscribe-modal-1280');

    // Basic, 3 maps, monthly, to the local test checkout (clearly a test).
    await startCheckout(page, 'Basic', 3, 'Monthly');
    const maps = page.getByRole('spinbutton', { name: 'Number of maps' });
    expect(await maps.inputValue()).toBe('3');
    expect(await page.locator('output#total').textContent()).toBe('$30.00');
    // The total follows the quantity as it is typed.
    await maps.fill('5');
    await expect.poll(() => page.locator('output#total').textContent()).toBe('$50.00');
    await maps.fill('3');
    await lookAt(page, 'e2e-local-checkout-1280');
    // Back on /maps#subscribe: Active, and 0 of 3 Basic slots in use.
    await completeCheckout(page, 'Basic');
    const meter = basicCard(page).getByRole('meter', { name: /basic/i });
    await expect.poll(() => meter.getAttribute('aria-valuetext'), { timeout: TIMEOUT }).toMatch(/^0 of 3 /);
    await lookAt(page, 'e2e-subscribed-1280');

    // Publish the registered map from the editor's Publish panel.
    await page.goto(`/maps/${mapId}`);
    await page.getByRole('tab', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Publish in a Basic slot' }).click();
    await page.getByText(/Live \(Basic\)/).first().waitFor({ timeout: TIMEOUT });

    await page.goto('/maps#subscribe');
    await expect
      .poll(() => basicCard(page).getByRole('meter', { name: /basic/i }).getAttribute('aria-valuetext'), { timeout: TIMEOUT })
      .toMatch(/^1 of 3 /);

    // Manage: the local billing page, cancel at the period's end, back to the plans.
    await basicCard(page).getByRole('button', { name: 'Manage' }).click();
    await page.waitForURL(/\/local-stripe\/billing\/bps_test_/, { timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await page.getByText(/Cancels /).waitFor({ timeout: TIMEOUT });
    await page.getByRole('link', { name: 'Return to Mapfold' }).click();
    await page.waitForURL(/\/maps#subscribe$/, { timeout: TIMEOUT });
    await basicCard(page).getByText('Canceled', { exact: true }).waitFor({ timeout: TIMEOUT });

    // The modal at phone size too.
    const phone = await signedInContext(browser, server, owner, { width: 375, height: 812 });
    const phonePage = await phone.newPage();
    await phonePage.goto('/maps#subscribe');
    await phonePage.getByRole('dialog', { name: 'Pick your plan' }).waitFor({ timeout: TIMEOUT });
    await basicCard(phonePage).getByText('Canceled', { exact: true }).waitFor({ timeout: TIMEOUT });
    await lookAt(phonePage, 'e2e-subscribe-modal-375');
    await lookAt(page, 'e2e-canceled-1280');
    await phone.close();
    await context.close();
  });
});
