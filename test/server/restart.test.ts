/** The embedded default keeps its data in DATA_DIR: a restarted server still has every map. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allProjections } from '../../projections/index.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openServices } from '../../server/services.js';

describe('embedded mode (PGlite in DATA_DIR)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'mapfold-restart-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  async function start() {
    const config = loadConfig({ DATA_DIR: dataDir });
    const services = await openServices(config, { logger: { info: () => {}, error: () => {} } });
    const app = await buildApp(services);
    const runner = new ProjectionRunner(services.db, services.store, allProjections);
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

  it('keeps accounts, maps and read models across a restart', async () => {
    const first = await start();
    const registered = await first.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { data: { email: 'keep@example.com', password: 'a long password', displayName: 'Keeper' } },
    });
    const cookie = registered.headers['set-cookie']!.toString().split(';')[0]!;
    const [mail] = await first.services.outbox!.list(1);
    const token = /token=([\w-]+)/.exec(mail!.text)![1];
    const verified = await first.app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { data: { token } } });
    expect(verified.statusCode).toBe(200);
    const created = await first.app.inject({ method: 'POST', url: '/api/fn/createMap', headers: { cookie }, payload: { data: { title: 'Survivor' } } });
    expect(created.statusCode).toBe(200);
    await first.runner.waitFor((await import('../../events/position.js')).parsePosition(created.json().position));
    await first.stop();

    const second = await start();
    const list = await second.app.inject({ method: 'GET', url: '/api/maps', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.json().result.map((m: { title: string }) => m.title)).toEqual(['Survivor']);
    await second.stop();
  // Two embedded starts (PGlite opens its data directory, projections catch up, seeding) and a
  // close each: on a loaded 2-core machine that has taken over 30 s.
  }, 120_000);
});
