/**
 * Floor plans for e2e maps: a plain SVG plan (outline, a hall, the floor's name) uploaded as the
 * owner, so the map shows real floors.
 */
import { expect } from 'vitest';
import type { TestServer, TestUser } from '../../support/test-server.js';

export const PLAN_SIZE = { width: 1000, height: 600 } as const;

export const floorPlan = (label: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1000 600" width="1000" height="600">
  <rect x="10" y="10" width="980" height="580" rx="16" fill="#f8fafc" stroke="#64748b" stroke-width="4"/>
  <rect x="60" y="340" width="880" height="200" fill="#e2e8f0"/>
  <text x="500" y="580" font-size="18" text-anchor="middle" fill="#64748b">${label}</text>
</svg>`;

/** Uploads `svg` as `user`; the file's URL. */
export async function uploadPlan(server: TestServer, user: TestUser, svg: string): Promise<string> {
  const answer = await fetch(`${server.url}/api/files`, { method: 'POST', headers: { 'content-type': 'application/octet-stream', cookie: user.cookie }, body: svg });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { result: { url: string } }).result.url;
}
