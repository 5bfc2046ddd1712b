/**
 * Prints the slowest test files of a vitest run from its JSON report (`vitest run
 * --reporter=json --outputFile=FILE`), slowest first, with their seconds: where the suite's time
 * goes, so CI's log shows which files to look at when it grows.
 *
 * Usage: tsx scripts/slowest-tests.ts REPORT.json [COUNT=15] [--write test/file-seconds.json]
 *
 * With `--write FILE` it also writes every file's seconds there (path: seconds, slowest first),
 * the list vitest's sequencer starts the slowest files first by (test/support/slowest-first-sequencer.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** The part of vitest's JSON report read here (one entry per test file). */
const Report = z.object({
  testResults: z.array(
    z.object({
      name: z.string(),
      status: z.string(),
      startTime: z.number(),
      endTime: z.number(),
      assertionResults: z.array(z.unknown()),
    }),
  ),
});

const args = process.argv.slice(2);
const writeAt = args.indexOf('--write');
const writePath = writeAt >= 0 ? args[writeAt + 1] : undefined;
if (writeAt >= 0) args.splice(writeAt, 2);
const [reportPath, countArgument = '15'] = args;
if (!reportPath || (writeAt >= 0 && !writePath)) {
  console.error('usage: tsx scripts/slowest-tests.ts REPORT.json [COUNT] [--write FILE]');
  process.exit(2);
}

const report = Report.parse(JSON.parse(readFileSync(reportPath, 'utf8')));
/**
 * A test file's path in the repository (test/...), whichever clone the report was made in: the
 * sequencer matches test/file-seconds.json's names to the files it runs.
 */
const inRepository = (name: string) => {
  const at = name.lastIndexOf(`${path.sep}test${path.sep}`);
  return at >= 0 ? name.slice(at + 1) : path.relative(process.cwd(), name);
};
const files = report.testResults
  .map((file) => ({
    file: inRepository(file.name),
    seconds: (file.endTime - file.startTime) / 1000,
    tests: file.assertionResults.length,
    status: file.status,
  }))
  .sort((a, b) => b.seconds - a.seconds);

const total = files.reduce((sum, file) => sum + file.seconds, 0);
const shown = files.slice(0, Number(countArgument));
console.log(`Slowest ${shown.length} of ${files.length} test files (${total.toFixed(0)} s in all files, run two at a time):`);
for (const file of shown) {
  const flag = file.status === 'passed' ? '' : `  (${file.status})`;
  console.log(`${file.seconds.toFixed(1).padStart(8)} s  ${file.file}  [${file.tests} tests]${flag}`);
}
if (writePath) {
  const seconds = Object.fromEntries(files.map((file) => [file.file.split(path.sep).join('/'), Math.round(file.seconds * 10) / 10]));
  writeFileSync(writePath, `${JSON.stringify(seconds, null, 1)}\n`);
  console.log(`Wrote the seconds of ${files.length} files to ${writePath}.`);
}
