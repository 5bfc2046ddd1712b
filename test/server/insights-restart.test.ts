/**
 * Counts survive a graceful restart (issue 19, part 4): beacons counted in memory and not yet
 * flushed (the flush interval is a minute here, so only closing writes them) are in the read
 * model after the server stops and starts again on the same database, and the report's counts
 * equal the beacons sent, per day. On PGlite in a data directory (closed and opened again) and
 * on PostgreSQL.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../events/map-document.js';
import type { InsightsReport } from '../../events/insights.js';
import { allProjections } from '../../projections/index.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import type { Database } from '../../ports/database.js';
import { openPostgresDatabase } from '../../server/db/postgres-database.js';
import { parsePosition } from '../../events/position.js';
import { openServices } from '../../server/services.js';
import { createPostgresDatabase, postgresUrl } from '../support/databases.js';
import { openTestPGlite } from '../support/pglite-template.js';

const document = {
  version: 2,
  settings: defaultSettings(),
  layers: [{ id: 'ground', name: 'Ground floor', file: null }],
  locations: [{ id: 'cafe', title: 'Café Noir', layer: 'ground', position: { x: 100, y: 200 }, groups: [] }],
  groups: [],
  styles: { regions: { base: '#e2e8f0', hover: '#c7d2fe', active: '#818cf8' } },
};

interface Storage {
  name: string;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'mapfold-insights-restart-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const storages: Array<{ name: string; make: () => Promise<Storage> }> = [
  { name: 'pglite', make: async () => ({ name: 'pglite', open: () => openTestPGlite(path.join(dataDir, 'pglite')), drop: async () => {} }) },
];
if (postgresUrl) {
  storages.push({
    name: 'postgres',
    make: async () => {
      const created = await createPostgresDatabase();
      return { name: 'postgres', open: () => openPostgresDatabase(created.url), drop: () => created.drop() };
    },
  });
}

const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const day = () => clock.now().toISOString().slice(0, 10);

async function start(storage: Storage) {
  const db = await storage.open();
  const config = loadConfig({ DATA_DIR: dataDir, ADMIN_EMAILS: '', INSIGHTS_FLUSH_MS: '60000', INSIGHTS_BEACONS_PER_MINUTE: '100000' });
  const services = await openServices(config, { db, clock, logger: { info: () => {}, error: () => {} } });
  const app = await buildApp(services);
  const runner = new ProjectionRunner(db, services.store, allProjections);
  await runner.start();
  return {
    app,
    runner,
    services,
    async stop() {
      await app.close();
      await runner.stop();
      await services.close();
    },
  };
}

describe.each(storages)('insights across a restart on $name', ({ make: makeStorage }) => {
  it('counts every beacon sent, per day, across a graceful restart', async () => {
    const storage = await makeStorage();
    try {
      let server = await start(storage);
      const registered = await server.app.inject({ method: 'POST', url: '/api/auth/register', payload: { data: { email: 'owner@example.com', password: 'a long password', displayName: 'Owner' } } });
      const cookie = registered.headers['set-cookie']!.toString().split(';')[0]!;
      const [mail] = await server.services.outbox!.list(1);
      const token = /token=([\w-]+)/.exec(mail!.text)![1];
      expect((await server.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { data: { token } } })).statusCode).toBe(200);
      const created = await server.app.inject({ method: 'POST', url: '/api/fn/createMap', headers: { cookie }, payload: { data: { title: 'Counted', mapData: document } } });
      expect(created.statusCode).toBe(200);
      await server.runner.waitFor(parsePosition(created.json().position));
      const mapId = created.json().result as string;
      await server.services.db.query('UPDATE maps_list SET state = 1 WHERE id = $1', [mapId]);

      const sent = new Map<string, number>();
      let opens = 0;
      const send = async (pages: number) => {
        // Concurrent pages, as visitors come: each beacon a view, every third an open too.
        await Promise.all(
          Array.from({ length: pages }, async (_, i) => {
            const counters = [{ kind: 'view', count: 1 }, ...(i % 3 === 0 ? [{ kind: 'open', location: 'cafe', count: 1 }] : [])];
            const answer = await server.app.inject({ method: 'POST', url: `/api/public/maps/${mapId}/insights`, remoteAddress: `10.2.${i >> 8}.${i & 255}`, payload: { data: { counters } } });
            expect(answer.statusCode).toBe(204);
            if (i % 3 === 0) opens += 1;
          }),
        );
        sent.set(day(), (sent.get(day()) ?? 0) + pages);
      };

      clock.offsetMs = -2 * 86_400_000;
      const first = day();
      await send(120);
      clock.offsetMs = -86_400_000;
      await send(45);
      // Nothing flushed yet (a minute's interval): all of it is in memory when the server stops.
      expect(server.app.insights.pendingRows).toBeGreaterThan(0);
      await server.stop();

      server = await start(storage);
      await send(30);
      clock.offsetMs = 0;
      await send(7);
      await server.stop();

      server = await start(storage);
      const login = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: { data: { email: 'owner@example.com', password: 'a long password' } } });
      const ownerCookie = login.headers['set-cookie']!.toString().split(';')[0]!;
      const answer = await server.app.inject({ method: 'GET', url: `/api/maps/${mapId}/insights?from=${first}&to=${day()}`, headers: { cookie: ownerCookie } });
      await server.stop();
      expect(answer.statusCode).toBe(200);
      const report = answer.json().result as InsightsReport;
      expect(Object.fromEntries(report.days.map((d) => [d.day, d.views]))).toEqual(Object.fromEntries(sent));
      expect(report.totals.views).toBe(120 + 45 + 30 + 7);
      expect(report.totals.opens).toBe(opens);
      expect(report.topLocations).toEqual([{ id: 'cafe', title: 'Café Noir', count: opens }]);
    } finally {
      clock.offsetMs = 0;
      await storage.drop();
    }
  }, 180_000);
});
