/**
 * A data source's sync at store-chain scale (issue 30 item 4): a real server syncs a 25,000-row
 * store CSV (bench/import-throughput.ts storeCsv, keyed by its store number) from a loopback
 * HTTP server (ALLOW_LOOPBACK_TARGETS=1), the way "Sync now" does (`syncMapNow`):
 *  - the first sync: 25,000 locations added;
 *  - the sheet changes (1% of rows renamed, 0.4% gone, 0.4% new), 200 of the renamed ones
 *    also edited in Mapfold (overridden): a preview (fetch, parse, plan, diff by key, nothing
 *    recorded), then the sync applied (the same and recorded), and the time until the map's read
 *    model holds it;
 *  - the diff alone (syncEdits, in this process): 25,000 planned rows against the map,
 *    with what the first sync applied (the overridden fields' check), median of 5.
 * `DATA_SOURCE_BENCH_QUICK=1` (or `--quick`): 2,000 rows, a check of the harness.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MapEdit } from '../events/map-edits.js';
import { activeMap, MapHistory } from '../server/history/map-history.js';
import { parsePosition } from '../events/position.js';
import type { Database } from '../ports/database.js';
import { syncEdits } from '../server/import/import-routes.js';
import { registerUser } from '../test/support/test-server.js';
import { callOk, startBenchServer } from './bench-server.js';
import { storeCsv } from './import-throughput.js';
import { median } from './stats.js';

const QUICK = process.env.DATA_SOURCE_BENCH_QUICK === '1' || process.argv.includes('--quick');
const ROWS = QUICK ? 2_000 : 25_000;

/** The sheet later: every 100th row renamed, every 250th gone, as many new ones. */
function changedCsv(csv: string): { text: string; renamed: number; removed: number; added: number } {
  const [header, ...rows] = csv.trimEnd().split('\r\n');
  let renamed = 0;
  let removed = 0;
  const kept = rows.flatMap((row, i) => {
    if (i % 250 === 125) {
      removed++;
      return [];
    }
    if (i % 100 === 0) {
      renamed++;
      return [row.replace(/,"Store (\d+), Main Street",/, ',"Store $1, High Street",')];
    }
    return [row];
  });
  const added = storeCsv(ROWS + removed).trimEnd().split('\r\n').slice(1 + ROWS);
  return { text: `${[header, ...kept, ...added].join('\r\n')}\r\n`, renamed, removed, added: added.length };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function benchDataSourceSync(db: Database, print: (line: string) => void): Promise<void> {
  let sheet = storeCsv(ROWS);
  const source = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/csv' }).end(sheet));
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
  const server = await startBenchServer(db, { ALLOW_LOOPBACK_TARGETS: '1' });
  try {
    const user = await registerUser(server, 'sync-bench@example.com');
    const fn = <T>(name: string, data: unknown) => callOk<T>(server, user, name, data);
    const settled = async (position: string | null) => {
      if (position) await server.runner.waitFor(parsePosition(position), ['map_data']);
    };
    const made = await fn<string>('createMap', { title: 'Store chain' });
    await settled(made.position);
    const mapId = made.result;
    const url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/stores.csv`;
    await settled((await fn('setMapDataSource', { mapId, url, keyColumn: 'Store Number', schedule: 'manual', name: 'Store chain sheet' })).position);
    type Sync = { sync: { added: number; changed: number; removed: number; overridden: number } };
    const timed = async (preview: boolean) => {
      const started = performance.now();
      const answer = await fn<Sync>('syncMapNow', { mapId, preview });
      const answered = performance.now() - started;
      await settled(answer.position);
      return { answer: answer.result.sync, answered, projected: performance.now() - started };
    };

    const first = await timed(false);
    print(`first sync (${ROWS.toLocaleString('en')} rows): ${first.answer.added.toLocaleString('en')} added in ${seconds(first.answered)}, in the read model after ${seconds(first.projected)}`);

    // 200 of the rows the sheet renames next are edited in Mapfold first: overridden.
    const history = await MapHistory.open(db, server.services.store);
    const state = activeMap((await history.stateAt(mapId)).state);
    const edited = state.document.locations.filter((_, i) => i % 100 === 0).slice(0, QUICK ? 10 : 200);
    for (let i = 0; i < edited.length; i += 100) {
      await settled((await fn('editMap', { id: mapId, edits: edited.slice(i, i + 100).map((l) => ({ type: 'LocationUpdated', id: l.id, changes: { title: `${l.title} (ours)` } })) })).position);
    }
    const changed = changedCsv(sheet);
    sheet = changed.text;
    const preview = await timed(true);
    const applied = await timed(false);
    const counts = applied.answer;
    print(
      `changed sheet (${changed.renamed} renamed, ${changed.removed} gone, ${changed.added} new; ${edited.length} of the renamed edited in Mapfold): ` +
        `${counts.added} added, ${counts.changed} changed, ${counts.removed} removed, ${counts.overridden} overridden`,
    );
    print(`  preview (fetch, parse, plan, diff by key): ${seconds(preview.answered)}`);
    print(`  applied (the same, recorded as one import): ${seconds(applied.answered)}, in the read model after ${seconds(applied.projected)}`);

    // The diff alone: the planned rows (every row an update, as the planner makes them) against the map.
    const after = activeMap((await history.stateAt(mapId)).state);
    const planned: MapEdit[] = [
      {
        type: 'ImportApplied',
        source: { format: 'csv', name: 'Store chain sheet', mapping: null },
        layers: [],
        groups: [],
        locations: [],
        updates: after.document.locations.map((l, i) => ({ id: l.id, changes: { title: i % 50 === 0 ? `${l.title}!` : l.title, position: l.position } })),
      },
    ];
    const runs: number[] = [];
    let diffed: ReturnType<typeof syncEdits> | null = null;
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      diffed = syncEdits(after.document, planned, { name: 'Store chain sheet', keys: after.dataSource!.keys, applied: after.dataSource!.applied, kept: after.dataSource!.kept });
      runs.push(performance.now() - started);
    }
    print(`diff alone (syncEdits, ${after.document.locations.length.toLocaleString('en')} rows against the map, ${diffed!.counts.changed} changed, ${diffed!.counts.overridden} overridden): median ${median(runs).toFixed(1)} ms of 5`);
  } finally {
    await server.close();
    await new Promise((resolve) => source.close(resolve));
  }
}
