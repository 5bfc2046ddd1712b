/**
 * `npm run projections:repair` as an operator runs it, in its own process, on PostgreSQL (or,
 * without DATABASE_URL, on PGlite files, the server stopped: about 40 s here, spent opening
 * PGlite in two processes, so CI runs the PostgreSQL case; the repair itself is the runner's,
 * tested on both in set-aside-stream.test.ts): a map's stream that an earlier, buggy version set aside
 * (its creation refused, checkpoint moved past it) is applied once the code accepts it, and
 * cleared; a stream that still fails stays set aside, is printed, and the command exits with 1.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { emptyMapDocument } from '../../events/map-document.js';
import { streams } from '../../events/streams.js';
import { writeCheckpoint } from '../../projections/checkpoints.js';
import { poisonedEvent } from '../../projections/dead-letters.js';
import { mapDataProjection } from '../../projections/map-data.js';
import { ProjectionRunner } from '../../projections/runner.js';
import { listSetAsideStreams, SET_ASIDE_SCHEMA, setAsideStream } from '../../projections/set-aside-streams.js';
import type { Database } from '../../ports/database.js';
import { openPostgresDatabase } from '../../server/db/postgres-database.js';
import { PostgresEventStore } from '../../server/event-store/postgres-event-store.js';
import { createPostgresDatabase, postgresUrl } from '../support/databases.js';
import { newEvent } from '../support/events.js';
import { openTestPGlite } from '../support/pglite-template.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Target {
  name: string;
  /** The database, the CLI's environment to reach it, and how to open it again after the CLI ran. */
  open(): Promise<{ db: Database; env: Record<string, string>; reopen(): Promise<Database>; dispose(): Promise<void> }>;
}

const pglite: Target = {
  name: 'pglite',
  async open() {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'mapfold-repair-'));
    const reopen = () => openTestPGlite(path.join(dataDir, 'pglite'));
    return { db: await reopen(), env: { DATA_DIR: dataDir }, reopen, dispose: async () => rmSync(dataDir, { recursive: true, force: true }) };
  },
};
const postgres: Target = {
  name: 'postgres',
  async open() {
    const created = await createPostgresDatabase();
    const reopen = () => openPostgresDatabase(created.url);
    return { db: await reopen(), env: { DATABASE_URL: created.url }, reopen, dispose: () => created.drop() };
  },
};

function repairCli(env: Record<string, string>): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'server/ops/repair-projections-cli.ts', 'map_data'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: '', ...env } }, (error, stdout) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout }),
    );
  });
}

describe.each(postgresUrl ? [postgres] : [pglite])('npm run projections:repair on $name', (target) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('applies a stream set aside by an earlier version once it applies, and keeps and prints one that still fails', { timeout: 120_000 }, async () => {
    const opened = await target.open();
    cleanups.push(opened.dispose);
    const { db } = opened;
    const store = await PostgresEventStore.open(db);
    // The read model as it stands: its tables, its checkpoint.
    const runner = new ProjectionRunner(db, store, [mapDataProjection]);
    await runner.catchUp();
    await db.exec(SET_ASIDE_SCHEMA);

    // Given two maps an earlier version set aside at their creation: one that today's code
    // applies, and one whose event it still refuses; the checkpoint moved past both.
    const created = (mapId: string) =>
      newEvent('MapCreated', { mapId, uid: 'ana', author: 'ana', title: `Map ${mapId}`, state: 0, document: emptyMapDocument(), created: new Date().toISOString() }, 'ana');
    await store.append(streams.map('good'), [created('good')], 'no_stream');
    const refused = newEvent('MapCreated', { mapId: 'bad', title: 42 }, 'ana');
    const last = await store.append(streams.map('bad'), [refused], 'no_stream');
    for (const stream of [streams.map('good'), streams.map('bad')]) {
      const [event] = await store.readStream(stream);
      await db.transaction((tx) => setAsideStream(tx, 'map_data', event!, poisonedEvent(event!, new Error('refused by an earlier version'), 10)));
    }
    await writeCheckpoint(db, 'map_data', mapDataProjection.version, last.position);
    await store.close();
    // On PGlite only one process may open the files: the CLI runs with the database closed.
    await db.close();

    const { code, stdout } = await repairCli(opened.env);
    expect(stdout).toContain(`repaired map_data ${streams.map('good')}`);
    expect(stdout).toMatch(new RegExp(`STILL SET ASIDE map_data ${streams.map('bad')} at MapCreated ${refused.id}`));
    expect(stdout).toContain('Repaired 1 stream(s); 1 still set aside.');
    expect(code).toBe(1);

    const again = await opened.reopen();
    try {
      // map_data's own row (the full read joins the maps list, which this test does not build).
      const rows = async (id: string) => (await again.query<{ id: string }>('SELECT id FROM map_data WHERE id = $1', [id])).rows.length;
      expect(await rows('good')).toBe(1);
      expect(await rows('bad')).toBe(0);
      expect((await listSetAsideStreams(again)).map(({ stream, eventId }) => ({ stream, eventId }))).toEqual([{ stream: streams.map('bad'), eventId: refused.id }]);
    } finally {
      await again.close();
    }
  });
});
