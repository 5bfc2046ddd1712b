/**
 * Comments in a real Chromium: the owner and a viewer have the map open; the viewer pins a
 * comment on the map and mentions the owner; it appears in the owner's editor without a reload,
 * with its pin; the owner replies and resolves; the viewer sees both; the owner got the mention
 * by mail, and the published viewer carries none of it. Runs against the built client.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInContext, startBrowserSession } from '../support/browser.js';
import { share } from '../support/sharing.js';
import { call, projected, registerUser, type TestServer, type TestUser } from '../support/test-server.js';

describe('comments in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server, browser } = session);
  });
  afterAll(() => session?.close());

  async function person(name: string): Promise<TestUser & { email: string }> {
    const email = `${name.toLowerCase().replace(/\W+/g, '.')}-${Date.now()}@example.com`;
    const user = await registerUser(server, email);
    const renamed = await fetch(`${server.url}/api/auth/update-profile`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: user.cookie },
      body: JSON.stringify({ data: { displayName: name } }),
    });
    if (!renamed.ok) throw new Error(`rename failed: ${renamed.status}`);
    return { ...user, email };
  }

  it('a viewer pins a comment and mentions the owner; the owner sees it live, replies and resolves', async () => {
    const owner = await person('Olivia Grant');
    const viewer = await person('Vera Lind');
    const made = await call(server, 'createMap', { title: 'Harbour Market' }, owner);
    const mapId = made.body.result as string;
    await projected(server, made.body.position);
    await share(server, owner, mapId, viewer, 'viewer');

    const ownerPage = await (await signedInContext(browser, server, owner)).newPage();
    const viewerPage = await (await signedInContext(browser, server, viewer)).newPage();
    for (const page of [ownerPage, viewerPage]) {
      await page.goto(`/maps/${mapId}`);
      await page.getByRole('tab', { name: 'Comments' }).click();
      await page.getByRole('button', { name: 'Add comment' }).waitFor();
    }

    // The viewer pins one on the map and mentions the owner through the picker.
    await viewerPage.getByRole('button', { name: 'Add comment' }).click();
    await viewerPage.getByRole('button', { name: /^Pin the comment here/ }).click({ position: { x: 500, y: 300 } });
    const box = viewerPage.getByRole('textbox', { name: 'Your comment' });
    await box.pressSequentially('Is this the loading bay? @Oli');
    await viewerPage.getByRole('option', { name: 'Olivia Grant' }).waitFor();
    await box.press('Enter');
    await box.pressSequentially('please check');
    await viewerPage.getByRole('button', { name: 'Post', exact: true }).click();
    await viewerPage.getByRole('heading', { name: /^Thread 1 on a point on/ }).waitFor();

    // The owner's editor shows it without a reload, with its pin.
    await ownerPage.getByRole('button', { name: /^Thread 1 Vera Lind/ }).waitFor();
    await ownerPage.getByRole('button', { name: /^Comment thread 1 by Vera Lind/ }).click();
    await ownerPage.getByText('Is this the loading bay? @Olivia Grant please check').waitFor();
    await ownerPage.getByRole('textbox', { name: 'Reply in thread 1' }).fill('Yes, bay 2.');
    await ownerPage.getByRole('button', { name: 'Reply', exact: true }).click();
    await ownerPage.getByRole('button', { name: 'Resolve', exact: true }).click();
    await ownerPage.getByText(/Resolved by Olivia Grant/).waitFor();

    // The viewer sees the reply and the resolution.
    await viewerPage.getByText('Yes, bay 2.').waitFor();
    await viewerPage.getByText(/Resolved by Olivia Grant/).waitFor();

    // The owner was mailed, with a link to the thread; nobody else was.
    const mails = (await server.services.outbox!.list(100)).filter((message) => /mentioned you/.test(message.subject));
    expect(mails.map((message) => message.to)).toEqual([owner.email]);
    expect(mails[0]!.text).toMatch(new RegExp(`/maps/${mapId}\\?comment=`));

    // The link opens the editor at the thread.
    const link = /https?:\/\/\S+\?comment=\S+/.exec(mails[0]!.text)![0];
    await ownerPage.goto(link);
    await ownerPage.getByRole('heading', { name: /^Thread 1 on a point on/ }).waitFor();
  }, 90_000);
});
