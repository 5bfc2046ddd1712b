/**
 * API tokens in a real Chromium (issue 30 item 1): make one on /account, copy it with the
 * button, use it as a script would (Authorization: Bearer), see its last use, open the API
 * reference from the section, revoke it and see the script refused; and both pages at 375 px
 * without sideways scrolling, and without a serious or critical axe-core finding.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInContext, startBrowserSession } from '../support/browser.js';
import { projected, registerUser, type TestServer } from '../support/test-server.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page (as test/e2e/accessibility.test.ts runs it). */
async function blockingViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'], iframes: false }).then((r) => r.violations)`)) as Array<{ id: string; impact: string | null; nodes: Array<{ target: unknown }> }>;
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

describe('API tokens in Chromium', () => {
  let session: Awaited<ReturnType<typeof startBrowserSession>>;
  let server: TestServer;

  beforeAll(async () => {
    session = await startBrowserSession();
    ({ server } = session);
  });
  afterAll(() => session?.close());

  it('makes a token on /account, copies it, uses it, and revokes it', async () => {
    const user = await registerUser(server);
    const context = await signedInContext(session.browser, server, user);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    await page.goto('/account#api-tokens');
    const section = page.getByRole('region', { name: 'API tokens' });
    await section.getByText('No API tokens yet.').waitFor();

    await section.getByLabel('Token name').fill('Store list sync');
    await section.getByRole('checkbox', { name: 'Write maps' }).check();
    await section.getByLabel('Expires after').selectOption({ label: 'Never' });
    await section.getByRole('button', { name: 'Create token' }).click();
    const fresh = section.getByRole('region', { name: 'New API token' });
    const token = await fresh.getByLabel('API token').inputValue();
    expect(token).toMatch(/^mf_[A-Za-z0-9_-]{43}$/);
    await fresh.getByRole('button', { name: 'Copy' }).click();
    await fresh.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    // A script with the token: it makes a map and lists it, as the account's owner.
    const bearer = { authorization: `Bearer ${token}` };
    const made = await fetch(`${server.url}/api/fn/createMap`, { method: 'POST', headers: { ...bearer, 'content-type': 'application/json' }, body: JSON.stringify({ data: { title: 'Made by a script' } }) });
    expect(made.status).toBe(200);
    // The answer's position: the maps list reflects it once the read model has it.
    await projected(server, ((await made.json()) as { position: string }).position);
    const listed = await fetch(`${server.url}/api/maps`, { headers: bearer });
    expect(listed.headers.get('x-ratelimit-limit')).toBe('600');
    expect(((await listed.json()) as { result: Array<{ title: string }> }).result.map((map) => map.title)).toEqual(['Made by a script']);

    // Gone from the page once done; the list shows it used.
    await fresh.getByRole('button', { name: 'Done' }).click();
    await page.reload();
    const item = section.getByRole('listitem').filter({ hasText: 'Store list sync' });
    await item.getByText(/^Last used /).waitFor();
    await item.getByText('Read maps · Write maps').waitFor();
    expect(await section.textContent()).not.toContain(token);

    // The API reference, from the section's link.
    await section.getByRole('link', { name: 'API reference' }).click();
    await page.getByRole('heading', { name: 'Authentication' }).waitFor();
    await page.goBack();

    await section.getByRole('button', { name: 'Revoke Store list sync' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “Store list sync”?' });
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await section.getByText('No API tokens yet.').waitFor();
    const refused = await fetch(`${server.url}/api/maps`, { headers: bearer });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe('This API token was revoked.');
    await context.close();
  });

  it('fits a phone: /account’s tokens and /docs/api at 375 px', async () => {
    const user = await registerUser(server);
    const context = await signedInContext(session.browser, server, user, { width: 375, height: 800 });
    const page = await context.newPage();
    await page.goto('/account#api-tokens');
    const section = page.getByRole('region', { name: 'API tokens' });
    await section.getByLabel('Token name').fill('Phone');
    await section.getByRole('button', { name: 'Create token' }).click();
    await section.getByRole('region', { name: 'New API token' }).waitFor();
    const sticksOut = () =>
      page.evaluate(() => {
        const card = document.getElementById('api-tokens')!.getBoundingClientRect();
        return [...document.querySelectorAll('#api-tokens *')].filter((el) => el.getBoundingClientRect().right > card.right + 0.5).length;
      });
    expect(await sticksOut()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // The section with a new token and a listed one: nothing axe calls serious or critical.
    await section.getByRole('listitem').filter({ hasText: 'Phone' }).waitFor();
    expect(await blockingViolations(page)).toEqual([]);
    await page.goto('/docs/api');
    await page.getByRole('heading', { name: 'Scopes' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await blockingViolations(page)).toEqual([]);
    await context.close();
  });
});
