/**
 * Who may read /metrics and /api/ready's details: the bearer of METRICS_TOKEN when it is set;
 * otherwise this machine only, and nobody when TRUST_PROXY says a proxy (on this host,
 * every request would come from loopback) stands in front. Everyone else gets the status
 * alone. Requests are injected with the peer address they would come from.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allProjections } from '../../projections/index.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openServices, type Services } from '../../server/services.js';
import { pgliteTarget, type TestDatabase } from '../support/databases.js';

const TOKEN = 'a-metrics-token-long-enough';
const REMOTE = '203.0.113.9';

describe('operations access', () => {
  let database: TestDatabase;
  let runner: ProjectionRunner;
  const opened: Array<{ app: FastifyInstance; services: Services }> = [];

  async function appWith(env: Record<string, string>): Promise<FastifyInstance> {
    const services = await openServices(loadConfig(env), { db: database.db, logger: { info: () => {}, error: () => {} } });
    const app = await buildApp(services);
    opened.push({ app, services });
    return app;
  }

  const asks = (app: FastifyInstance, url: string, from: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, remoteAddress: from, headers });

  beforeAll(async () => {
    database = await pgliteTarget.open();
    const services = await openServices(loadConfig({}), { db: database.db, logger: { info: () => {}, error: () => {} } });
    runner = new ProjectionRunner(database.db, services.store, allProjections);
    await runner.start();
    opened.push({ app: await buildApp(services), services });
  });
  afterAll(async () => {
    await runner?.stop();
    for (const { app, services } of opened) {
      await app.close();
      await services.store.close();
    }
    await database?.dispose();
  });

  it('METRICS_TOKEN must be long enough to be a secret', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN: must be at least 16 characters/);
  });

  describe('without METRICS_TOKEN', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await appWith({});
    });

    it('this machine reads /metrics and the details of /api/ready', async () => {
      for (const from of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
        const metrics = await asks(app, '/metrics', from);
        expect(metrics.statusCode).toBe(200);
        expect(metrics.body).toContain('mapfold_projection_dead_letters{projection="billing"} 0');
        const ready = await asks(app, '/api/ready', from);
        expect(ready.statusCode).toBe(200);
        expect(ready.json()).toMatchObject({ status: 'ready', degraded: [], database: { ok: true }, projections: { billing: { setAside: [], parked: 0 } } });
      }
    });

    it('an anonymous remote caller gets 403 from /metrics and only the status of /api/ready', async () => {
      const metrics = await asks(app, '/metrics', REMOTE);
      expect(metrics.statusCode).toBe(403);
      expect(metrics.json()).toEqual({ error: { status: 'PERMISSION_DENIED', message: expect.stringContaining('only to this machine') } });
      expect(metrics.body).not.toContain('mapfold_');
      const ready = await asks(app, '/api/ready', REMOTE);
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready' });
    });

    it('a forged X-Forwarded-For does not make a remote caller local', async () => {
      const metrics = await asks(app, '/metrics', REMOTE, { 'x-forwarded-for': '127.0.0.1' });
      expect(metrics.statusCode).toBe(403);
      expect((await asks(app, '/api/ready', REMOTE, { 'x-forwarded-for': '127.0.0.1' })).json()).toEqual({ status: 'ready' });
    });

    it('a token means nothing while none is configured', async () => {
      expect((await asks(app, '/metrics', REMOTE, { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(403);
    });
  });

  describe('with METRICS_TOKEN', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await appWith({ METRICS_TOKEN: TOKEN });
    });

    it('the token holder reads both, from anywhere', async () => {
      const metrics = await asks(app, '/metrics', REMOTE, { authorization: `Bearer ${TOKEN}` });
      expect(metrics.statusCode).toBe(200);
      expect(metrics.body).toContain('mapfold_projection_set_aside_streams{projection="map_data"} 0');
      const ready = await asks(app, '/api/ready', REMOTE, { authorization: `bearer ${TOKEN}` });
      expect(ready.json()).toMatchObject({ status: 'ready', eventStore: { ok: true }, projectionLag: { billing: 0 } });
    });

    it('a wrong token, or none, gets 401 with a Bearer challenge, from loopback too', async () => {
      for (const [from, headers] of [
        [REMOTE, { authorization: `Bearer ${TOKEN}x` }],
        [REMOTE, { authorization: TOKEN }],
        ['127.0.0.1', {}],
        ['127.0.0.1', { authorization: `Basic ${Buffer.from(`user:${TOKEN}`).toString('base64')}` }],
      ] as const) {
        const metrics = await asks(app, '/metrics', from, headers);
        expect(metrics.statusCode).toBe(401);
        expect(metrics.headers['www-authenticate']).toBe('Bearer realm="mapfold-metrics"');
        expect(metrics.json().error.status).toBe('UNAUTHENTICATED');
        const ready = await asks(app, '/api/ready', from, headers);
        expect(ready.statusCode).toBe(200);
        expect(ready.json()).toEqual({ status: 'ready' });
      }
    });
  });

  describe('with TRUST_PROXY set', () => {
    it('without a token nobody reads them, not even loopback (the proxy on this host)', async () => {
      const app = await appWith({ TRUST_PROXY: 'loopback' });
      const metrics = await asks(app, '/metrics', '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' });
      expect(metrics.statusCode).toBe(403);
      expect(metrics.json().error.message).toMatch(/TRUST_PROXY/);
      expect((await asks(app, '/api/ready', '127.0.0.1')).json()).toEqual({ status: 'ready' });
    });

    it('with a token, its holder reads them through the proxy', async () => {
      const app = await appWith({ TRUST_PROXY: 'loopback', METRICS_TOKEN: TOKEN });
      expect((await asks(app, '/metrics', '127.0.0.1', { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': REMOTE })).statusCode).toBe(200);
      expect((await asks(app, '/metrics', '127.0.0.1', { 'x-forwarded-for': REMOTE })).statusCode).toBe(401);
    });
  });
});
