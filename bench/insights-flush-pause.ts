/**
 * How long one flush of the insights counter holds the event loop (issue 19, part 4): on
 * PGlite the database runs in the server's own thread, so a statement of thousands of rows
 * pauses every request for its whole length. A busy day's flush is many distinct rows (searches,
 * locations opened, on many maps): here 2,000 new rows, then the same 2,000 again (updates),
 * five times each, on PGlite in a data directory as production runs it; printed: the flush's
 * total time and the longest pause of the event loop during it (a 1 ms timer's lateness), medians.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPGliteDatabase } from '../server/db/pglite-database.js';
import { InsightsCounter } from '../server/insights/insights-counter.js';

const ROWS = 2_000;
const ROUNDS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Runs `work` while a 1 ms timer notes how late it fires: the longest pause of the event loop. */
async function longestPause(work: () => Promise<void>): Promise<{ total: number; pause: number }> {
  let last = performance.now();
  let pause = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    pause = Math.max(pause, now - last);
    last = now;
  }, 1);
  const start = performance.now();
  await work();
  const total = performance.now() - start;
  clearInterval(timer);
  pause = Math.max(pause, performance.now() - last);
  return { total, pause };
}

export async function benchInsightsFlushPause(print: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mapfold-insights-flush-'));
  const db = await openPGliteDatabase(path.join(dir, 'pglite'));
  const counter = await InsightsCounter.open({ db, clock: { now: () => new Date() }, flushMs: 3_600_000 });
  try {
    const fill = (round: number) => {
      for (let i = 0; i < ROWS; i++) counter.add(`map-${i % 40}`, 'search', `search ${round} ${i}`, 1);
    };
    const results: Record<'insert' | 'update', Array<{ total: number; pause: number }>> = { insert: [], update: [] };
    for (let round = 0; round < ROUNDS; round++) {
      fill(round);
      results.insert.push(await longestPause(() => counter.flush()));
      fill(round);
      results.update.push(await longestPause(() => counter.flush()));
    }
    for (const kind of ['insert', 'update'] as const) {
      const runs = results[kind];
      print(`PGlite: a flush of ${ROWS.toLocaleString('en')} ${kind === 'insert' ? 'new rows' : 'rows already there (updates)'}: ${median(runs.map((r) => r.total)).toFixed(0)} ms in all, the event loop's longest pause ${median(runs.map((r) => r.pause)).toFixed(0)} ms (medians of ${ROUNDS})`);
    }
  } finally {
    await counter.close();
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchInsightsFlushPause((line) => console.log(line));
