/**
 * Published maps at embed scale (issue 18): the real server against a plain Fastify process
 * serving the very same bytes from memory, in one run, on PGlite and on PostgreSQL.
 *
 * Per database: the real server as its own process (bench/server-process.ts); its answers to
 * `GET /api/public/maps/demo` and `GET /m/demo` captured once, undecoded, in identity and in the
 * encoding it picks for `Accept-Encoding: br, gzip`, with its ETag and its 304; a plain Fastify
 * process replaying them (bench/plain-server.ts). Then autocannon (50 connections) on each
 * question, real and plain taking turns (which goes first alternates per round) after a
 * warm-up of each, so that whatever else this shared 2-core machine does hits both alike:
 *  - the map JSON, 200, as a browser asks (`Accept-Encoding: br, gzip`), with bytes per answer;
 *  - the same with `If-None-Match: <its ETag>` (304);
 *  - the viewer page `/m/demo` (HTML, 200).
 * Medians over the rounds of req/s and p99 latency, and the real server's share of the plain
 * one's req/s (the median of the rounds' shares, with their range; the issue's aim: at least 60%); the real server's resident memory after start
 * and after the read runs. The figures are for comparison within a run, not absolute.
 *
 * PUBLIC_BENCH_SECONDS (10) and PUBLIC_BENCH_ROUNDS (3) shorten it for a check of the harness;
 * PUBLIC_BENCH_LOG_LEVEL sets the real server's LOG_LEVEL (production's default is info; the
 * public routes write no per-request lines at any level, server/http/quiet-routes.ts).
 */
import { capture, encodingOf, type CapturedResponse } from './captured-response.js';
import { load, type LoadResult } from './load.js';
import { startPlainServer, type PlainRoute } from './plain-process.js';
import { cpuMillis, residentBytes, type ServerProcess } from './processes.js';
import { startRealServer, type ServerDatabase } from './server-process.js';
import { COMPILED_SERVER_COMMAND } from '../test/support/compiled-server.js';
import { median } from './stats.js';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.PUBLIC_BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.PUBLIC_BENCH_ROUNDS ?? 3);
const WARM_UP_SECONDS = Math.min(3, SECONDS);
/** What the load asks for, as browsers do (they add deflate and zstd; the server offers br and gzip). */
const BROWSER_ENCODING = 'br, gzip';
const MAP_ID = 'demo';
const JSON_PATH = `/api/public/maps/${MAP_ID}`;
const PAGE_PATH = `/m/${MAP_ID}`;

interface Question {
  label: string;
  path: string;
  headers: Record<string, string>;
  expect: number;
}

/** One run's load figures and the server's CPU time per answer over it (µs; null: unknown). */
type Run = LoadResult & { cpuMicrosPerAnswer: number | null };

interface Figures {
  real: Run[];
  plain: Run[];
}

export interface PublicReadResult {
  database: string;
  questions: Array<{ question: Question; figures: Figures; body: { bytes: number; encoding: string; identityBytes: number } }>;
  /** Why a question could not be asked (e.g. no ETag, so no 304). */
  skipped: string[];
  rssAfterStart: number | null;
  rssAfterRun: number | null;
  plainRss: number | null;
}

async function captured(url: string, headers: Record<string, string>, expect: number): Promise<CapturedResponse> {
  const response = await capture(url, headers);
  if (response.status !== expect) throw new Error(`${url} answered ${response.status}, not ${expect}`);
  return response;
}

/** The answers of one path for the plain process: identity, the browser's encoding, and the 304. */
async function captureRoute(base: string, path: string): Promise<PlainRoute> {
  const identity = await captured(base + path, { 'accept-encoding': 'identity' }, 200);
  const encoded = await captured(base + path, { 'accept-encoding': BROWSER_ENCODING }, 200);
  const variants = encodingOf(encoded) === 'identity' ? [encoded] : [identity, encoded];
  const etag = encoded.headers.etag;
  let notModified: PlainRoute['notModified'] = null;
  if (etag) {
    const response = await capture(base + path, { 'accept-encoding': BROWSER_ENCODING, 'if-none-match': etag });
    if (response.status === 304) notModified = { etag, response };
  }
  return { path, variants, notModified };
}

async function measureDatabase(database: ServerDatabase, name: string, print: (line: string) => void): Promise<PublicReadResult> {
  // PUBLIC_BENCH_LOG_LEVEL sets the real server's log level (the public routes log no request lines anyway).
  const logLevel = process.env.PUBLIC_BENCH_LOG_LEVEL;
  const real = await startRealServer(database, logLevel ? { LOG_LEVEL: logLevel } : {});
  let plain: ServerProcess | null = null;
  try {
    // Settled after start (projections caught up, seeding done), before any visitor.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const rssAfterStart = residentBytes(real.pid);
    const json = await captureRoute(real.url, JSON_PATH);
    // The page needs the client build (dist/client/viewer.html); without it only the JSON is asked.
    const page = await captureRoute(real.url, PAGE_PATH).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    plain = await startPlainServer(typeof page === 'string' ? [json] : [json, page]);
    // The variants are identity first, then the browser's encoding (when it is another).
    const encodedJson = json.variants.at(-1)!;
    const questions: PublicReadResult['questions'] = [];
    const skipped: string[] = [];
    const ask = (question: Question, answer: CapturedResponse, identity: CapturedResponse) =>
      questions.push({
        question,
        figures: { real: [], plain: [] },
        body: { bytes: answer.body.length, encoding: encodingOf(answer), identityBytes: identity.body.length },
      });
    ask({ label: `GET ${JSON_PATH} 200`, path: JSON_PATH, headers: { accept: 'application/json', 'accept-encoding': BROWSER_ENCODING }, expect: 200 }, encodedJson, json.variants[0]!);
    if (json.notModified) {
      ask(
        { label: `GET ${JSON_PATH} 304 (If-None-Match)`, path: JSON_PATH, headers: { accept: 'application/json', 'accept-encoding': BROWSER_ENCODING, 'if-none-match': json.notModified.etag }, expect: 304 },
        json.notModified.response,
        json.notModified.response,
      );
    } else {
      skipped.push(`${JSON_PATH}: ${encodedJson.headers.etag ? 'its ETag is not answered with 304' : 'no ETag, so no 304'}`);
    }
    if (typeof page === 'string') skipped.push(`${PAGE_PATH}: ${page} (npm run build first)`);
    else ask({ label: `GET ${PAGE_PATH} (HTML) 200`, path: PAGE_PATH, headers: { accept: 'text/html', 'accept-encoding': BROWSER_ENCODING }, expect: 200 }, page.variants.at(-1)!, page.variants[0]!);

    const servers = { real, plain };
    const run = async (server: ServerProcess, question: Question, seconds: number): Promise<Run> => {
      const before = cpuMillis(server.pid);
      const result = await load({ url: server.url + question.path, headers: question.headers, connections: CONNECTIONS, seconds, expect: question.expect });
      const after = cpuMillis(server.pid);
      const cpu = before !== null && after !== null && result.answers > 0 ? ((after - before) * 1000) / result.answers : null;
      return { ...result, cpuMicrosPerAnswer: cpu };
    };
    for (const { question } of questions) for (const server of [real, plain]) await run(server, question, WARM_UP_SECONDS);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['real', 'plain'] as const) : (['plain', 'real'] as const);
      for (const { question, figures } of questions) {
        for (const which of order) figures[which].push(await run(servers[which], question, SECONDS));
      }
      print(`${name}: round ${round + 1} of ${ROUNDS} done`);
    }
    return { database: name, questions, skipped, rssAfterStart, rssAfterRun: residentBytes(real.pid), plainRss: residentBytes(plain.pid) };
  } finally {
    await plain?.stop();
    await real.stop();
  }
}

const int = (value: number) => Math.round(value).toLocaleString('en');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const mb = (bytes: number | null) => (bytes === null ? '?' : `${Math.round(bytes / 1024 / 1024)} MB`);

/** One cell: median req/s and p99 of the runs, flagged when some answers were not as expected. */
function cell(results: Run[]): string {
  const unexpected = new Map<string, number>();
  for (const result of results) for (const [what, count] of Object.entries(result.unexpected)) unexpected.set(what, (unexpected.get(what) ?? 0) + count);
  const flagged = [...unexpected].map(([what, count]) => `${int(count)} × ${/^\d+$/.test(what) ? `status ${what}` : what}`).join(', ');
  return `${int(median(results.map((r) => r.requestsPerSecond)))} req/s, p99 ${int(median(results.map((r) => r.p99)))} ms${flagged ? ` (unexpected: ${flagged})` : ''}`;
}

/**
 * The real server's req/s as a share of the plain one's: the median of each round's pair (run
 * one after the other, so they saw much the same machine), with the rounds' range, which says
 * how much the machine's other work moved it.
 */
function ratio(figures: Figures): string {
  const perRound = figures.real.map((real, i) => (100 * real.requestsPerSecond) / figures.plain[i]!.requestsPerSecond);
  return `${Math.round(median(perRound))}%${perRound.length > 1 ? ` (rounds ${Math.round(Math.min(...perRound))}–${Math.round(Math.max(...perRound))}%)` : ''}`;
}

const cpuOf = (runs: Run[]) => runs.map((run) => run.cpuMicrosPerAnswer).filter((cpu): cpu is number => cpu !== null);

/** The median CPU time of one answer (µs), over the rounds. */
function cpuCell(runs: Run[]): string {
  const cpu = cpuOf(runs);
  return cpu.length > 0 ? `${Math.round(median(cpu))} µs` : '?';
}

/**
 * The plain process's CPU per answer as a share of the real server's: how much of the real
 * server's work per answer the bytes alone need. Steadier than the req/s ratio on a busy
 * machine, since it does not depend on how much of the cores each process was given.
 */
function cpuRatio(figures: Figures): string {
  const real = cpuOf(figures.real);
  const plain = cpuOf(figures.plain);
  return real.length > 0 && plain.length > 0 ? `${Math.round((100 * median(plain)) / median(real))}% (CPU)` : '';
}

/** The side-by-side table of both databases (Markdown, for the closing note). */
export function publicReadTable(results: PublicReadResult[]): string[] {
  const header = ['', ...results.flatMap((r) => [`${r.database}: Mapfold`, 'plain Fastify, same bytes', 'ratio'])];
  const rows: string[][] = [];
  const labels = [...new Set(results.flatMap((r) => r.questions.map((q) => q.question.label)))];
  for (const label of labels) {
    rows.push([label, ...results.flatMap((r) => {
      const found = r.questions.find((q) => q.question.label === label);
      return found ? [cell(found.figures.real), cell(found.figures.plain), ratio(found.figures)] : ['not asked', '', ''];
    })]);
  }
  for (const label of labels) {
    rows.push([`server CPU per answer, ${label.replace(/^GET /, '')}`, ...results.flatMap((r) => {
      const found = r.questions.find((q) => q.question.label === label);
      return found ? [cpuCell(found.figures.real), cpuCell(found.figures.plain), cpuRatio(found.figures)] : ['', '', ''];
    })]);
  }
  for (const label of labels) {
    rows.push([`bytes per answer, ${label.replace(/^GET /, '')}`, ...results.flatMap((r) => {
      const found = r.questions.find((q) => q.question.label === label);
      if (!found) return ['', '', ''];
      const onWire = (runs: LoadResult[]) => kb(median(runs.map((run) => run.bytesPerResponse)));
      const body = found.body.bytes === 0 ? 'no body' : found.body.encoding === 'identity' ? `${kb(found.body.bytes)} body, not compressed` : `${kb(found.body.bytes)} ${found.body.encoding} body, ${kb(found.body.identityBytes)} identity`;
      return [`${onWire(found.figures.real)} (${body})`, onWire(found.figures.plain), ''];
    })]);
  }
  rows.push(['resident memory (VmRSS), after start → after the reads', ...results.flatMap((r) => [`${mb(r.rssAfterStart)} → ${mb(r.rssAfterRun)}`, mb(r.plainRss), ''])]);
  return [header, header.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`);
}

export async function benchPublicReads(print: (line: string) => void, databases: ServerDatabase[] = ['pglite', 'postgres']): Promise<PublicReadResult[]> {
  print(`autocannon, ${CONNECTIONS} connections, Accept-Encoding: ${BROWSER_ENCODING}; ${ROUNDS} rounds of ${SECONDS} s per question and process after ${WARM_UP_SECONDS} s of warm-up, real and plain taking turns; medians`);
  print(`the real server as production runs it (${COMPILED_SERVER_COMMAND}, NODE_ENV=production, ${process.env.PUBLIC_BENCH_LOG_LEVEL ? `LOG_LEVEL=${process.env.PUBLIC_BENCH_LOG_LEVEL}` : 'its default log level (info; the public routes write no per-request lines)'}, the logs discarded)`);
  print('(a shared 2-core machine: the load generator, the server and other work share it; compare within a run)');
  const results: PublicReadResult[] = [];
  for (const database of databases) {
    const name = database === 'pglite' ? 'PGlite' : 'PostgreSQL';
    const result = await measureDatabase(database, name, print);
    for (const reason of result.skipped) print(`${name}: not measured: ${reason}`);
    results.push(result);
  }
  for (const line of publicReadTable(results)) print(line);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';
  await benchPublicReads((line) => console.log(line));
}
