/**
 * Cleaning up many locations in Chromium, as issue 27's user had to (56 deletions of 3 clicks
 * each): on a map made from the world map (a location per country), a shift-click takes a
 * range, the search narrows the list, "Select all" takes every match, and one confirmed Delete
 * removes them all in one save (one event, one line in the timeline); Undo brings every one back.
 */
import type { Page, Request, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signedInContext, useBrowserSession } from '../support/browser.js';
import { registerUser } from '../support/test-server.js';

const TIMEOUT = 15_000;

interface MapData {
  result: { data: { locations: Array<{ id: string; title: string }> } };
}

async function titlesOnServer(page: Page, mapId: string): Promise<string[]> {
  const answer = (await (await page.request.get(`/api/maps/${mapId}/data`)).json()) as MapData;
  return answer.result.data.locations.map((location) => location.title).sort();
}

describe('the locations list in Chromium', () => {
  const session = useBrowserSession({ env: { BODY_LIMIT: String(2 * 1024 * 1024) } });

  it('deletes many locations in a few clicks, as one undoable edit', { timeout: 180_000 }, async () => {
    const owner = await registerUser(session.server);
    const context = await signedInContext(session.browser, session.server, owner);
    const page = await context.newPage();

    await page.goto('/maps/new');
    await page.getByLabel('Title').fill('Tidy atlas');
    await page.getByRole('radio', { name: /World countries/ }).check();
    await page.getByRole('button', { name: 'Create map' }).click();
    await page.waitForURL((url) => /^\/maps\/[A-Za-z0-9_-]+$/.test(url.pathname) && url.pathname !== '/maps/new', { timeout: TIMEOUT });
    const mapId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('checkbox', { name: 'Select France' }).waitFor({ timeout: TIMEOUT });
    const everyTitle = await titlesOnServer(page, mapId);
    expect(everyTitle.length).toBeGreaterThan(100);

    // A click and a shift-click: the five rows from the first to the fifth.
    const list = page.getByRole('list', { name: 'Locations' });
    const boxes = list.getByRole('checkbox');
    await boxes.nth(0).click();
    await boxes.nth(4).click({ modifiers: ['Shift'] });
    const bar = page.getByRole('region', { name: 'Selected locations' });
    await bar.getByText('5 selected', { exact: true }).waitFor();
    for (let index = 0; index < 6; index += 1) expect(await boxes.nth(index).isChecked()).toBe(index < 5);
    // Shift+Space from the keyboard on the seventh takes the sixth and seventh too, once.
    await boxes.nth(6).focus();
    await page.keyboard.press('Shift+Space');
    await bar.getByText('7 selected', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await bar.waitFor({ state: 'detached' });

    // Every country with "land" in its name: search, Select all, Delete, confirm.
    const saves: Request[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/fn/editMap')) saves.push(request);
    });
    const isSave = (response: Response) => response.url().endsWith('/api/fn/editMap') && response.ok();
    await page.getByRole('searchbox', { name: 'Search locations' }).fill('land');
    const selectAll = page.getByRole('checkbox', { name: /^Select all \d+ matches$/ });
    await selectAll.waitFor({ timeout: TIMEOUT });
    const matches = Number(/(\d+) matches/.exec((await selectAll.getAttribute('aria-label'))!)![1]);
    expect(matches).toBeGreaterThan(8);
    const doomed = everyTitle.filter((title) => title.toLowerCase().includes('land'));
    expect(doomed).toHaveLength(matches);
    await selectAll.click();
    await bar.getByText(`${matches} selected`, { exact: true }).waitFor();
    await bar.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${matches} locations?` });
    const saved = page.waitForResponse(isSave, { timeout: TIMEOUT });
    await dialog.getByRole('button', { name: `Delete ${matches} locations` }).click();
    await saved;
    await page.getByText(`Nothing matches “land”.`).waitFor();

    // One save, with one edit naming them all.
    expect(saves).toHaveLength(1);
    const sent = saves[0]!.postDataJSON() as { data: { edits: Array<{ type: string; ids: string[] }> } };
    expect(sent.data.edits.map((edit) => edit.type)).toEqual(['LocationsRemoved']);
    expect(sent.data.edits[0]!.ids).toHaveLength(matches);
    await expect.poll(() => titlesOnServer(page, mapId), { timeout: TIMEOUT }).toEqual(everyTitle.filter((title) => !doomed.includes(title)));

    // The timeline has it as one line.
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('button', { name: 'Open the timeline' }).click();
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const events = timeline.getByRole('list', { name: /^Events, newest first/ });
    await events.getByText(new RegExp(`removed ${matches} locations`)).waitFor({ timeout: TIMEOUT });
    expect(await events.getByText(/removed \d+ locations?/).count()).toBe(1);
    await timeline.getByRole('button', { name: 'Back to editing' }).click();

    // One Undo brings every one back, in one save.
    const undone = page.waitForResponse(isSave, { timeout: TIMEOUT });
    await page.getByRole('button', { name: 'Undo' }).click();
    await undone;
    expect(saves).toHaveLength(2);
    await expect.poll(() => titlesOnServer(page, mapId), { timeout: TIMEOUT }).toEqual(everyTitle);
    await page.getByRole('tab', { name: 'Locations' }).click();
    await page.getByRole('checkbox', { name: `Select all ${everyTitle.length} locations` }).waitFor({ timeout: TIMEOUT });

    await context.close();
  });
});
