/**
 * Routing on a 10,000-point, 3-floor network (`npm run bench -- route`; bench/route-network.ts):
 * the graph's build time, then findRoute's median and p99 over 1,000 random pairs, shortest and
 * step-free, on the cached graph; in Node, then in headless Chromium (the same code bundled by
 * esbuild, which ships with vite). Aim: under 5 ms median in both.
 */
import { build } from 'esbuild';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { launchChromium } from './browser-profiles.js';
import { runRouteBench, type RouteBenchFigures } from './route-network.js';


function report(where: string, figures: RouteBenchFigures, log: (line: string) => void): void {
  const ms = (value: number) => `${value.toFixed(2)} ms`;
  log(`${where}: ${figures.nodes} points, ${figures.edges} links; graph build ${ms(figures.build.median)} (median)`);
  log(`${where}: findRoute shortest median ${ms(figures.shortest.median)}, p99 ${ms(figures.shortest.p99)}`);
  log(`${where}: findRoute step-free median ${ms(figures.stepFree.median)}, p99 ${ms(figures.stepFree.p99)}`);
  log(`${where}: ${figures.routes} routes, ${figures.failed} without a way (cut-off points)`);
}

export async function benchRoute(log: (line: string) => void): Promise<void> {
  // Wall-clock times: on a shared machine a busy moment lands in the p99, so say how busy it was.
  log(`load average ${loadavg().map((l) => l.toFixed(1)).join(', ')} (1, 5, 15 min)`);
  report('Node', runRouteBench(() => performance.now()), log);
  const bundle = await build({
    entryPoints: [path.join(import.meta.dirname, 'route-browser.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
  });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    const figures = await page.evaluate(() =>
      (globalThis as unknown as { runRouteBench: (now: () => number) => RouteBenchFigures }).runRouteBench(() => performance.now()),
    );
    report('Chromium', figures, log);
  } finally {
    await browser.close();
  }
}
