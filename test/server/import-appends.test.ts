/**
 * How an import's edits are recorded (server/import/import-routes.ts, issue 26 item 8): an import
 * of one part in one append; a big import's parts one append each, so that no append holds the
 * embedded database for all of it. Still one import or none: when a part cannot be recorded, the
 * parts recorded before it are taken back and the import answers an error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MapEdit } from '../../events/map-edits.js';
import { formatPosition } from '../../events/position.js';
import { streams } from '../../events/streams.js';
import type { Database } from '../../ports/database.js';
import { importAppends } from '../../server/import/import-routes.js';
import { pgliteTarget } from '../support/databases.js';
import { createMapAs, projected, registerUser, startTestServer, type TestServer } from '../support/test-server.js';

const source = { format: 'csv', name: 'stores.csv', mapping: null } as const;
const part = (number: number, of: number): MapEdit => ({ type: 'ImportApplied', source, part: { number, of }, layers: [], groups: [], locations: [], updates: [] });
const whole: MapEdit = { type: 'ImportApplied', source, layers: [], groups: [], locations: [], updates: [] };
const starterRemoved: MapEdit = { type: 'LayerRemoved', id: 'ground', removedLocations: [] };

describe('the appends an import is recorded in', () => {
  it('keeps an import of one part, and what follows it, in one append', () => {
    expect(importAppends([whole, starterRemoved])).toEqual([[whole, starterRemoved]]);
  });

  it('gives each part of a big import its own append, the edits after the last part with it', () => {
    const parts = [part(1, 3), part(2, 3), part(3, 3)];
    expect(importAppends([...parts, starterRemoved])).toEqual([[parts[0]], [parts[1]], [parts[2], starterRemoved]]);
  });
});

/** A table of `rows` stores with positions. */
function storesCsv(rows: number): string {
  const lines = ['Name,Latitude,Longitude'];
  for (let i = 0; i < rows; i++) lines.push(`Store ${i},${(i % 80) - 40}.5,${(i % 300) - 150}.25`);
  return `${lines.join('\n')}\n`;
}

describe('a big import through the route', () => {
  let server: TestServer;
  /** Set to make the next append of an import part fail, as a database failing midway would. */
  let failImportParts = 0;
  let importAppendsSeen = 0;
  const failingParts = (db: Database): Database => ({
    ...db,
    async query(sql, params) {
      if (sql.includes('es_append') && typeof params?.[2] === 'string' && params[2].includes('"ImportApplied"')) {
        importAppendsSeen++;
        if (failImportParts > 0 && importAppendsSeen === failImportParts) throw new Error('the disk is full');
      }
      return db.query(sql, params);
    },
  });

  beforeAll(async () => {
    server = await startTestServer(pgliteTarget, { appDatabase: failingParts });
  });
  afterAll(async () => {
    await server.close();
  });

  const importCsv = async (user: { cookie: string }, mapId: string, csv: string) => {
    const response = await fetch(`${server.url}/api/maps/${mapId}/import?filename=stores.csv&apply=1`, { method: 'POST', headers: { 'content-type': 'text/csv', cookie: user.cookie }, body: csv });
    return { status: response.status, body: (await response.json()) as { position?: string; result?: { revision: string }; error?: { message: string } } };
  };
  const locationsOf = async (user: { cookie: string }, mapId: string) => {
    const response = await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: user.cookie } });
    return ((await response.json()) as { result: { data: { locations: Array<{ title: string }> } } }).result.data.locations;
  };

  it('records a 12,000-row file in three appends, all of it there when it answers', { timeout: 120_000 }, async () => {
    const owner = await registerUser(server);
    const mapId = await createMapAs(server, owner, 'Stores');
    importAppendsSeen = 0;
    const answer = await importCsv(owner, mapId, storesCsv(12_000));
    expect(answer.status).toBe(200);
    expect(importAppendsSeen).toBe(3);
    await projected(server, answer.body.position!);
    const locations = await locationsOf(owner, mapId);
    expect(locations).toHaveLength(12_000);
    expect(locations.at(-1)!.title).toBe('Store 11999');
  });

  it('takes back the parts recorded before one that fails, and says nothing was imported', { timeout: 120_000 }, async () => {
    const owner = await registerUser(server);
    const mapId = await createMapAs(server, owner, 'Stores');
    importAppendsSeen = 0;
    failImportParts = 3;
    const answer = await importCsv(owner, mapId, storesCsv(12_000));
    failImportParts = 0;
    expect(answer.status).toBe(500);
    expect(importAppendsSeen).toBe(3);
    expect(answer.body.error?.message).not.toMatch(/parts were imported/);
    // The map is as it was: the two parts recorded were taken back, in one more append.
    const events = await server.services.store.readStream(streams.map(mapId));
    const last = events.at(-1)!;
    expect(events.filter((event) => event.type === 'ImportApplied')).toHaveLength(2);
    const takenBack = events.slice(events.findLastIndex((event) => event.type === 'ImportApplied') + 1).map((event) => event.type);
    expect(takenBack.filter((type) => type === 'LocationsRemoved')).toHaveLength(2);
    await projected(server, formatPosition(last.position));
    expect(await locationsOf(owner, mapId)).toEqual([]);
  });
});
