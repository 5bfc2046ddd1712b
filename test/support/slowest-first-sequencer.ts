/**
 * The order vitest starts test files in (vitest.config.ts's `sequence.sequencer`): the slowest
 * first, by the seconds each file took in a CI run (test/file-seconds.json), across projects.
 *
 * Two workers take files in this order. Vitest's own order on a fresh clone (no results cache)
 * is project by project, larger files first, so a file of 300 lines that takes three minutes
 * (an import of 100,000 rows) could start last and run on alone while the other worker sat
 * idle. Longest first leaves the short files to fill in at the end.
 *
 * A file not in the list (a new one) is taken to last as long as the list's median file.
 * `npx tsx scripts/slowest-tests.ts REPORT.json 15 --write test/file-seconds.json` writes the
 * list again from a run's JSON report (`test-results/vitest-report.json` after `npm test`).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const FILE_SECONDS = path.resolve(import.meta.dirname, '../file-seconds.json');

function fileSeconds(): Map<string, number> {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(FILE_SECONDS, 'utf8')) as Record<string, number>));
  } catch {
    return new Map();
  }
}

export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = fileSeconds();
    const root = this.ctx.config.root;
    const sorted = [...seconds.values()].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const estimate = (spec: TestSpecification) => seconds.get(path.relative(root, spec.moduleId).split(path.sep).join('/')) ?? median;
    // Vitest's order first (stable for equal estimates), then the slowest ahead of the quicker.
    const base = await super.sort(files);
    return base
      .map((spec, index) => ({ spec, index, seconds: estimate(spec) }))
      .sort((a, b) => b.seconds - a.seconds || a.index - b.index)
      .map(({ spec }) => spec);
  }
}
