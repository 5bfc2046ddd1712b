/**
 * What a cold load of a published map's page transfers: `/m/demo` opened in headless Chromium
 * in a fresh context (empty cache) against the real server process (bench/server-process.ts,
 * PGlite, the built client), every response counted as it came over the wire (CDP's
 * encodedDataLength: headers and the body as sent, compressed or not) until the viewer is
 * ready and the network has been quiet for a second: the HTML, scripts, styles, fonts, the
 * map's JSON and images. Median over a few loads (the set of requests is the same each time),
 * by kind, with the encodings the server chose for what Chromium asked.
 * Chromium's Accept-Encoding (on loopback it asks for br too) is printed with the figures.
 */
import { existsSync } from 'node:fs';
import type { CDPSession } from 'playwright-core';
import { CHROMIUM, launchChromium } from './browser-profiles.js';
import { startRealServer } from './server-process.js';
import { median } from './stats.js';

const LOADS = 3;
const PAGE = '/m/demo';

interface Transfer {
  url: string;
  kind: string;
  status: number;
  encoding: string;
  bytes: number;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Collects every finished response of the page's session, and the Accept-Encoding sent. */
function recordTransfers(cdp: CDPSession): { transfers: Transfer[]; acceptEncoding: Set<string>; quietFor(): number } {
  const pending = new Map<string, Omit<Transfer, 'bytes'>>();
  const transfers: Transfer[] = [];
  const acceptEncoding = new Set<string>();
  let lastActivity = performance.now();
  cdp.on('Network.requestWillBeSent', () => (lastActivity = performance.now()));
  cdp.on('Network.requestWillBeSentExtraInfo', (event) => {
    const header = Object.entries(event.headers).find(([name]) => name.toLowerCase() === 'accept-encoding');
    if (header) acceptEncoding.add(String(header[1]));
  });
  cdp.on('Network.responseReceived', (event) => {
    const encoding = Object.entries(event.response.headers).find(([name]) => name.toLowerCase() === 'content-encoding')?.[1];
    pending.set(event.requestId, { url: event.response.url, kind: event.type ?? 'Other', status: event.response.status, encoding: encoding ? String(encoding) : 'identity' });
  });
  cdp.on('Network.loadingFinished', (event) => {
    lastActivity = performance.now();
    const response = pending.get(event.requestId);
    if (response) transfers.push({ ...response, bytes: event.encodedDataLength });
  });
  return { transfers, acceptEncoding, quietFor: () => performance.now() - lastActivity };
}

export async function benchViewerTransfer(print: (line: string) => void): Promise<void> {
  if (!existsSync('dist/client/viewer.html')) {
    print('viewer transfer: no build (run npm run build first)');
    return;
  }
  if (!existsSync(CHROMIUM)) {
    print(`viewer transfer: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
    return;
  }
  const server = await startRealServer('pglite', { LOG_LEVEL: 'warn' });
  const browser = await launchChromium();
  try {
    const loads: Array<{ transfers: Transfer[]; acceptEncoding: Set<string> }> = [];
    // One warm-up load (the server's first answers), not counted.
    for (let load = 0; load <= LOADS; load++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      const recorded = recordTransfers(cdp);
      await page.goto(server.url + PAGE);
      await page.waitForFunction(() => (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady, undefined, { timeout: 60_000 });
      const deadline = Date.now() + 15_000;
      while (recorded.quietFor() < 1000 && Date.now() < deadline) await page.waitForTimeout(100);
      await context.close();
      if (load > 0) loads.push(recorded);
    }
    const totals = loads.map((load) => load.transfers.reduce((sum, t) => sum + t.bytes, 0));
    print(`viewer page ${PAGE}, cold load on the wire: median ${kb(median(totals))} (${loads[0]!.transfers.length} responses; ${LOADS} loads, min ${kb(Math.min(...totals))}, max ${kb(Math.max(...totals))})`);
    const kinds = [...new Set(loads[0]!.transfers.map((t) => t.kind))];
    for (const kind of kinds) {
      const bytes = median(loads.map((load) => load.transfers.filter((t) => t.kind === kind).reduce((sum, t) => sum + t.bytes, 0)));
      print(`  ${kind}: ${kb(bytes)}`);
    }
    for (const transfer of [...loads[0]!.transfers].sort((a, b) => b.bytes - a.bytes)) {
      const where = new URL(transfer.url);
      print(`    ${kb(transfer.bytes).padStart(9)}  ${transfer.status} ${transfer.encoding.padEnd(8)} ${where.pathname}${where.search}`);
    }
    print(`  Chromium asked for Accept-Encoding: ${[...loads[0]!.acceptEncoding].join(' | ') || '(not seen)'}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchViewerTransfer((line) => console.log(line));
