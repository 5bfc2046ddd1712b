/**
 * Several server processes on one PostgreSQL database: one leads the projections, the other
 * pushes to its own clients; when the leader is killed (SIGKILL, no goodbye), the survivor
 * takes the projections over and its clients keep getting pushes, with no event lost or
 * applied twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePositions, parsePosition } from '../../events/position.js';
import { topics } from '../../events/topics.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { allProjections } from '../../projections/index.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { buildApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { openPostgresDatabase } from '../../server/db/postgres-database.js';
import { openServices } from '../../server/services.js';
import { compiledServerArgs } from '../support/compiled-server.js';
import { createPostgresDatabase, postgresUrl } from '../support/databases.js';
import { openLive, registerUser, type TestServer } from '../support/test-server.js';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

async function until(predicate: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!postgresUrl)('two server processes on one PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let leader: ChildProcess;
  let leaderUrl: string;
  let survivor: TestServer;
  let survivorRunner: ProjectionRunner;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const port = await freePort();
    leaderUrl = `http://127.0.0.1:${port}`;
    // The leader is a real process, started as `npm start` starts the server: its compiled copy (dist/node/).
    leader = spawn(process.execPath, await compiledServerArgs(), {
      env: { ...process.env, DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', PUBLIC_URL: leaderUrl },
      stdio: 'ignore',
    });
    await until(async () => (await fetch(`${leaderUrl}/api/health`).catch(() => null))?.ok === true, 30_000);

    const db = await openPostgresDatabase(database.url);
    const services = await openServices(loadConfig({ PUBLIC_URL: leaderUrl }), { db, logger: { info: () => {}, error: () => {} } });
    const app = await buildApp(services);
    survivorRunner = new ProjectionRunner(db, services.store, allProjections);
    await survivorRunner.start();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    survivor = {
      app,
      services,
      runner: survivorRunner,
      database: { db, url: database.url, dispose: async () => {} },
      url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
      close: async () => {
        await app.close();
        await survivorRunner.stop();
        await services.close();
      },
    };
  }, 60_000);

  afterAll(async () => {
    leader?.kill('SIGKILL');
    await survivor?.close();
    await database?.drop();
  });

  it('keeps projecting and pushing after the leader dies', async () => {
    expect(survivorRunner.isLeading('maps_list')).toBe(false);
    const user = await registerUser(survivor);
    const live = await openLive(survivor, user);
    live.send({ v: 2, type: 'subscribe', topic: topics.maps(user.uid) });
    await live.next((m) => m.type === 'snapshot');

    const callAt = async (base: string, name: string, data: unknown) => {
      const response = await fetch(`${base}/api/fn/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: user.cookie },
        body: JSON.stringify({ data }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { result: string; position: string };
    };
    const pushedAt = (position: string) =>
      live.next((m) => m.type === 'snapshot' && comparePositions(parsePosition(m.position), parsePosition(position)) >= 0);

    // Written through the leader, projected by the leader, pushed by the survivor.
    const made = await callAt(leaderUrl, 'createMap', { title: 'Before' });
    await pushedAt(made.position);

    leader.kill('SIGKILL');
    await until(() => survivorRunner.isLeading('maps_list') && survivorRunner.isLeading('map_data'));

    let last = made.position;
    for (let i = 1; i <= 5; i++) last = (await callAt(survivor.url, 'saveMap', { id: made.result, title: `After ${i}` })).position;
    const second = await callAt(survivor.url, 'createMap', { title: 'Second' });
    const pushed = await pushedAt(second.position);
    expect(pushed.type === 'snapshot' && pushed.data.kind === 'maps' ? pushed.data.maps.map((m) => m.title) : null).toEqual(['After 5', 'Second']);
    expect(comparePositions(parsePosition(second.position), parsePosition(last))).toBeGreaterThan(0);

    // Every event applied exactly once: the map data's revision is its stream's last, and each
    // map projection's checkpoint is the log's last map event.
    const data = await fetch(`${survivor.url}/api/maps/${made.result}/data`, { headers: { cookie: user.cookie } }).then((r) => r.json());
    expect(data.result).toMatchObject({ title: 'After 5', revision: '5' });
    // (The push above came from the maps list; the other projections may commit a moment later.)
    // Only the projections reading map streams see these events.
    for (const projection of allProjections.filter((p) => p.streamPrefixes.includes('map-'))) {
      await until(async () => {
        const checkpoint = await readCheckpoint(survivor.database.db, projection.name);
        return checkpoint !== null && comparePositions(checkpoint.position, parsePosition(second.position)) >= 0;
      });
      const checkpoint = await readCheckpoint(survivor.database.db, projection.name);
      expect(comparePositions(checkpoint!.position, parsePosition(second.position))).toBe(0);
    }
    live.close();
  });
});
