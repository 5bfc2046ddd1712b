/**
 * The editor's map in Chromium, as the e2e tests drive it: points on the map as fractions of the
 * canvas, clicks (shift-clicks branch a path), the map's tool bar, and the map's data as the
 * server reads it back.
 */
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { TestServer, TestUser } from '../../support/test-server.js';

export interface ScreenPoint {
  x: number;
  y: number;
}

/** A function from fractions of the editor's map (0..1 across and down) to page coordinates. */
export async function canvasPoints(page: Page): Promise<(fx: number, fy: number) => ScreenPoint> {
  const box = (await page.locator('.ed-canvas .mf-viewport').boundingBox())!;
  return (fx, fy) => ({ x: box.x + box.width * fx, y: box.y + box.height * fy });
}

/** A click on the map; with `shift`, the path tool branches from the point clicked. */
export async function clickAt(page: Page, point: ScreenPoint, shift = false): Promise<void> {
  if (shift) await page.keyboard.down('Shift');
  await page.mouse.click(point.x, point.y);
  if (shift) await page.keyboard.up('Shift');
}

/** A button of the map's tool bar (Select, Add location, Draw paths, Add connector). */
export const toolButton = (page: Page, name: string) => page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name });

/** A floor's button in the editor's floor switcher. */
export const floorButton = (page: Page, name: string) => page.getByRole('group', { name: 'Floors' }).getByRole('button', { name });

export interface SavedPaths {
  paths: {
    nodes: Array<{ id: string; layer: string; x: number; y: number }>;
    edges: Array<{ from: string; to: string; stepFree: boolean; oneWay: boolean }>;
    connectors: Array<{ kind: string; name: string; nodes: string[] }>;
  };
  locations: Array<{ id: string; entrances: string[] }>;
}

/** The map's data as the server has it now (what the editor saved). */
export async function savedMapData(server: TestServer, mapId: string, user: TestUser): Promise<SavedPaths> {
  const response = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: user.cookie } });
  return ((await response.json()) as { result: { data: SavedPaths } }).result.data;
}

/** Makes `name` the map's tool (its button toggles, so it is pressed only when not on already). */
export async function chooseTool(page: Page, name: string): Promise<void> {
  const button = toolButton(page, name);
  if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
  await expect.poll(() => button.getAttribute('aria-pressed')).toBe('true');
}
