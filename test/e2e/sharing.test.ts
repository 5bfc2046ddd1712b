/**
 * Sharing in Chromium against the real server (issue 16): the owner invites an address that
 * has no account yet from the share dialog; the invitee opens the mailed link signed out,
 * creates an account from the invitation page, verifies the address through the mailed link
 * and lands in the map, read-only as a viewer and told why; "Shared with me" on /maps shows it
 * without counting it among their own maps; a withdrawn invitation's link says so. Screenshots
 * of the share dialog at 1280 and 375 wide go to $SCREENSHOTS/share-dialog-*.png when it is set; axe-core finds
 * no serious or critical violation in the dialog (owner's and member's), the invitation page
 * and "Shared with me".
 *
 * The steps share the browsers and run in order; they wait on what the pages show.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyMapDocument, Location } from '../../events/map-document.js';
import { signedInContext, startBrowserSession } from '../support/browser.js';
import { animationsEnded } from './support/animations.js';
import { call, projected, registerUser, type TestServer, type TestUser } from '../support/test-server.js';
import { lookAt } from './support/look-at.js';

const TIMEOUT = 15_000;
const invitee = { name: 'Dana Reyes', email: 'dana.new@example.com', password: 'correct horse battery' };

/** axe-core, run through DevTools (the page's CSP refuses an inline script), as in accessibility.test.ts. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The whole page, or with `only` what it selects (the dialog). The header's account avatar
 * (initials shown, "Account settings for …" said) is left out: not this feature's, and reported apart.
 */
async function expectAccessible(page: Page, where: string, only?: string) {
  // Colours are read as a person sees them once the page is still: mid-fade, every text on
  // /maps once measured below contrast (CI, 2026-11-29).
  await animationsEnded(page);
  await page.evaluate(AXE_SOURCE);
  const context = JSON.stringify(only ? { include: [[only]] } : { exclude: [['.site-header .avatar']] });
  const violations = (await page.evaluate(`axe.run(${context}, { resultTypes: ['violations'] }).then((r) => r.violations)`)) as Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }>;
  const blocking = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(blocking.map((violation) => `${violation.impact}: ${violation.id} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`), where).toEqual([]);
}

/** The newest mailed link to `path` for `email`, read from the outbox page as a person would. */
async function mailedLink(page: Page, email: string, path: '/invitations/' | '/verify-email'): Promise<string> {
  await page.goto('/dev/outbox');
  const mail = page.locator('article').filter({ hasText: `to ${email}` });
  const href = (await mail.getByRole('link', { name: new RegExp(path.replace(/[/?]/g, '\\$&')) }).first().getAttribute('href'))!;
  const url = new URL(href);
  return `${url.pathname}${url.search}`;
}

async function openShareDialog(page: Page, mapId: string) {
  await page.goto(`/maps/${mapId}`);
  await page.getByRole('region', { name: /Map editor/ }).waitFor();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share “Harbour Market”' });
  await dialog.getByText('Ada Lovelace').waitFor();
  return dialog;
}

describe('sharing a map in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;
  let browser: Browser;
  let owner: TestUser;
  let mapId: string;
  const contexts: BrowserContext[] = [];
  let ownerPage: Page;
  let inviteePage: Page;
  let invitationPath: string;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server, browser } = session);
    owner = await registerUser(server, 'ada.share@example.com', { displayName: 'Ada Lovelace' });
    const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 200, y: 160 } });
    const made = await call(server, 'createMap', { title: 'Harbour Market', mapData: { ...emptyMapDocument(), locations: [cafe] } }, owner);
    await projected(server, made.body.position);
    mapId = made.body.result as string;
    const ownerContext = await signedInContext(browser, server, owner);
    contexts.push(ownerContext);
    ownerPage = await ownerContext.newPage();
    ownerPage.setDefaultTimeout(TIMEOUT);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await session?.close();
  });

  it('the owner invites an address with no account yet, as a viewer', { timeout: 60_000 }, async () => {
    const dialog = await openShareDialog(ownerPage, mapId);
    await expect.poll(() => ownerPage.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe('name@company.com');
    await dialog.getByLabel('Invite by email').fill(invitee.email);
    await dialog.getByRole('combobox', { name: 'Role' }).selectOption('viewer');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await dialog.getByText(`Invitation sent to ${invitee.email}.`).waitFor();
    const pending = dialog.getByRole('listitem').filter({ hasText: invitee.email });
    await pending.getByText(/Viewer · expires in 2 weeks/).waitFor();
    // Escape closes it, and focus is back on the Share button.
    await ownerPage.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => ownerPage.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Share');
  });

  it('the invitee opens the link signed out, creates an account, verifies, and lands in the map read-only', { timeout: 90_000 }, async () => {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 375, height: 812 } });
    contexts.push(context);
    inviteePage = await context.newPage();
    inviteePage.setDefaultTimeout(TIMEOUT);
    const page = inviteePage;

    invitationPath = await mailedLink(page, invitee.email, '/invitations/');
    await page.goto(invitationPath);
    await page.getByRole('heading', { name: 'You are invited to a map' }).waitFor();
    await lookAt(page, 'invitation-signed-out-375');
    await expectAccessible(page, 'the invitation page, signed out');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.waitForURL('**/register');
    await page.getByLabel('Display name').fill(invitee.name);
    await page.getByLabel('Email').fill(invitee.email);
    await page.getByLabel('Password').fill(invitee.password);
    await page.getByRole('button', { name: 'Create account' }).click();

    // Back on the invitation: the address must be verified before joining.
    await page.waitForURL(`**${invitationPath}`);
    await page.getByRole('heading', { name: 'Verify your email to join' }).waitFor();
    await page.goto(await mailedLink(page, invitee.email, '/verify-email'));
    await page.getByText('Your email address is verified.').waitFor();
    await page.getByRole('link', { name: 'Open the map you were invited to' }).click();

    await page.waitForURL(`**/maps/${mapId}`);
    await page.getByRole('region', { name: /Map editor/ }).waitFor();
    await page.getByText('You can view this map. Ask Ada Lovelace to make you an editor to change it.').waitFor();
    expect(await page.getByRole('toolbar', { name: 'Tools' }).count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Map title' }).count()).toBe(0);
    expect(await page.getByRole('tab', { name: 'Publish' }).count()).toBe(0);
    await lookAt(page, 'viewer-editor-375');

    // The owner's dialog now lists them as a member.
    const dialog = await openShareDialog(ownerPage, mapId);
    await dialog.getByRole('combobox', { name: `Role of ${invitee.name}` }).waitFor();
    expect(await dialog.getByRole('combobox', { name: `Role of ${invitee.name}` }).inputValue()).toBe('viewer');
    await dialog.getByRole('button', { name: 'Done' }).click();
  });

  it('"Shared with me" lists the map on /maps, apart from their own maps', { timeout: 60_000 }, async () => {
    const page = inviteePage;
    await page.goto('/maps');
    const shared = page.getByRole('list', { name: 'Maps shared with you' });
    const card = shared.getByRole('article').filter({ hasText: 'Harbour Market' });
    await card.getByText('Owner Ada Lovelace').waitFor();
    await card.getByText('Viewer', { exact: true }).waitFor();
    await expectAccessible(page, '/maps with "Shared with me"');
    await lookAt(page, 'shared-with-me-375', { fullPage: true });
    // Their own list stays empty: the shared map is no map of theirs and uses no test slot.
    await page.getByText('No maps yet').waitFor();
    await card.getByRole('link', { name: 'Harbour Market', exact: true }).click();
    await page.waitForURL(`**/maps/${mapId}`);
    await page.getByRole('region', { name: /Map editor/ }).waitFor();
  });

  it("a withdrawn invitation's link says it cannot be used, with a way back", { timeout: 60_000 }, async () => {
    const dialog = await openShareDialog(ownerPage, mapId);
    await dialog.getByLabel('Invite by email').fill('eve.late@example.com');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await dialog.getByText('Invitation sent to eve.late@example.com.').waitFor();
    await dialog.getByRole('button', { name: 'Revoke the invitation to eve.late@example.com' }).click();
    await dialog.getByText('The invitation to eve.late@example.com no longer works.').waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();

    const page = inviteePage;
    await page.goto(await mailedLink(page, 'eve.late@example.com', '/invitations/'));
    await page.getByRole('heading', { name: 'This invitation cannot be used' }).waitFor();
    expect((await page.getByRole('alert').textContent())?.trim()).not.toBe('');
    await page.getByRole('link', { name: 'Go to your maps' }).click();
    await page.waitForURL('**/maps');
  });

  it('the share dialog at 1280 and 375 wide: members, a pending invitation, the view link', { timeout: 60_000 }, async () => {
    let dialog = await openShareDialog(ownerPage, mapId);
    await dialog.getByLabel('Invite by email').fill('frank.ops@example.com');
    await dialog.getByRole('button', { name: 'Invite', exact: true }).click();
    await dialog.getByText('Invitation sent to frank.ops@example.com.').waitFor();
    const toggle = dialog.getByRole('switch', { name: 'Anyone with the link can view' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('true');
    const link = await dialog.getByRole('textbox', { name: 'View link' }).inputValue();
    expect(link).toMatch(new RegExp(`/m/${mapId}\\?key=`));
    await animationsEnded(ownerPage);
    await lookAt(ownerPage, 'share-dialog-1280');
    await expectAccessible(ownerPage, "the owner's share dialog at 1280", '[role="dialog"]');

    // The view link opens the map for anyone, no account needed.
    const visitor = await browser.newContext({ baseURL: server.url });
    contexts.push(visitor);
    const anyone = await visitor.newPage();
    const answer = await anyone.goto(new URL(link).pathname + new URL(link).search);
    expect(answer?.status()).toBe(200);

    await ownerPage.setViewportSize({ width: 375, height: 812 });
    await ownerPage.keyboard.press('Escape');
    dialog = await openShareDialog(ownerPage, mapId);
    await dialog.getByText('frank.ops@example.com').waitFor();
    await animationsEnded(ownerPage);
    await lookAt(ownerPage, 'share-dialog-375');
    await expectAccessible(ownerPage, "the owner's share dialog at 375", '[role="dialog"]');
    // Nothing sticks out sideways on a phone.
    expect(await ownerPage.evaluate(() => document.querySelector('[role="dialog"]')!.scrollWidth <= window.innerWidth)).toBe(true);

    // A member sees the list read-only, with Leave map.
    const memberDialog = inviteePage;
    await memberDialog.goto(`/maps/${mapId}`);
    await memberDialog.getByRole('button', { name: 'Share', exact: true }).click();
    const theirs = memberDialog.getByRole('dialog');
    await theirs.getByText('Ada Lovelace').waitFor();
    await theirs.getByRole('button', { name: 'Leave map' }).waitFor();
    expect(await theirs.getByLabel('Invite by email').count()).toBe(0);
    await animationsEnded(memberDialog);
    await lookAt(memberDialog, 'share-dialog-member-375');
    await expectAccessible(memberDialog, "a member's share dialog at 375", '[role="dialog"]');
  });
});
