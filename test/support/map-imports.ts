/**
 * What import tests do over HTTP as one signed-in user: make a map, read its document, send a
 * file to `POST /api/maps/{id}/import` (previewed, or applied and waited for until the read
 * models have it). `user` is read at each call, so a test may switch owners between tests.
 */
import { expect } from 'vitest';
import { MapDocument } from '../../events/map-document.js';
import type { ImportOptions, ImportPreview } from '../../events/map-import.js';
import { call, projected, type TestServer, type TestUser } from './test-server.js';

export function mapImports(server: () => TestServer, user: () => TestUser) {
  async function createMap(title: string, mapData?: unknown): Promise<string> {
    const made = await call(server(), 'createMap', mapData ? { title, mapData } : { title }, user());
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await projected(server(), made.body.position);
    return made.body.result as string;
  }

  async function documentOf(id: string): Promise<MapDocument> {
    const response = await fetch(`${server().url}/api/maps/${id}/data`, { headers: { cookie: user().cookie } });
    return MapDocument.parse(((await response.json()) as { result: { data: unknown } }).result.data);
  }

  /** Sends a file to the import endpoint as the raw body; applies it when asked, then waits for the read model. */
  async function importFile(id: string, body: string | Uint8Array<ArrayBuffer>, filename: string, contentType: string, apply = true, options?: ImportOptions): Promise<ImportPreview> {
    const mapping = options ? `&mapping=${encodeURIComponent(JSON.stringify(options))}` : '';
    const response = await fetch(`${server().url}/api/maps/${id}/import?filename=${encodeURIComponent(filename)}${apply ? '&apply=1' : ''}${mapping}`, {
      method: 'POST',
      headers: { 'content-type': contentType, cookie: user().cookie },
      body,
    });
    const answer = (await response.json()) as { result: ImportPreview; position: string | null; error?: { message: string } };
    expect(response.status, answer.error?.message).toBe(200);
    // An apply answers the position of its events: wait until the read models have them.
    if (apply) await projected(server(), answer.position!);
    return answer.result;
  }

  return { createMap, documentOf, importFile };
}
