/**
 * Subscribing in Chromium as a customer does: the plan's card in the subscribe modal
 * (/maps#subscribe), the local test checkout, and back on the modal with the plan Active.
 */
import type { Page } from 'playwright-core';

const TIMEOUT = 20_000;

export type PlanName = 'Basic' | 'Professional';

/** The plan's card in the open subscribe modal. */
export const planCard = (page: Page, plan: PlanName) => page.getByRole('dialog').getByRole('article').filter({ has: page.getByRole('heading', { name: plan, exact: true }) });

/** The subscribe modal opened by its address, once shown. */
export async function openSubscribe(page: Page): Promise<void> {
  await page.goto('/maps#subscribe');
  const dialog = page.getByRole('dialog', { name: 'Pick your plan' });
  await dialog.waitFor({ timeout: TIMEOUT });
  await dialog.getByText('Start or manage subscription').waitFor({ timeout: TIMEOUT });
}

/** From the open subscribe modal to the local test checkout for `quantity` maps of `plan`. */
export async function startCheckout(page: Page, plan: PlanName, quantity: number, interval: 'Monthly' | 'Annual' = 'Monthly'): Promise<void> {
  const card = planCard(page, plan);
  const maps = card.getByRole('spinbutton', { name: 'Number of maps' });
  await maps.fill(String(quantity));
  await maps.blur();
  await card.getByRole('radio', { name: interval }).check();
  await card.getByRole('button', { name: 'Subscribe' }).click();
  await page.waitForURL(/\/local-stripe\/checkout\/cs_test_/, { timeout: TIMEOUT });
  await page.getByText('TEST MODE').waitFor({ timeout: TIMEOUT });
}

/** Pays on the local test checkout; back on /maps#subscribe once the plan shows Active. */
export async function completeCheckout(page: Page, plan: PlanName): Promise<void> {
  await page.getByRole('button', { name: 'Complete test payment' }).click();
  await page.waitForURL(/\/maps\?checkout=success#subscribe$/, { timeout: TIMEOUT });
  await planCard(page, plan).getByText('Active', { exact: true }).waitFor({ timeout: TIMEOUT });
}
