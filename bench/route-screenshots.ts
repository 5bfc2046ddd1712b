/**
 * The demo mall's path network drawn over its floor plans, for checking by eye that the paths
 * run where the corridors are drawn. Not a benchmark and not a test:
 * `npx tsx bench/route-screenshots.ts [out-dir]` writes route-network-{floor}.png (default
 * screenshots/, git-ignored): links grey (red where they have steps), doors and corridor points,
 * the connectors' stops, and the demo pair's routes (shortest orange, step-free blue dashed).
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { launchChromium } from './browser-profiles.js';
import { findRoute } from '../events/wayfinding/find-route.js';
import type { RouteResult } from '../events/wayfinding/route-types.js';
import { demoMallDocument } from '../server/seed/demo-mall.js';
import { DEMO_STEP_FREE_PAIR } from '../server/seed/demo-mall-paths.js';

const OUT_DIR = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '../screenshots'));
const CONNECTOR_COLOURS = { lift: '#2563eb', stairs: '#dc2626', escalator: '#9333ea', ramp: '#059669' } as const;

const document = demoMallDocument();
const byId = new Map(document.paths.nodes.map((n) => [n.id, n]));
const { from, to } = DEMO_STEP_FREE_PAIR;
const routes: Array<{ result: RouteResult; colour: string; dash: string }> = [
  { result: findRoute(document, { location: from }, { location: to }, { stepFree: false }), colour: '#f97316', dash: '' },
  { result: findRoute(document, { location: from }, { location: to }, { stepFree: true }), colour: '#1d4ed8', dash: '14 8' },
];

function overlay(layer: string): string {
  const lines = document.paths.edges
    .map((e) => [byId.get(e.from)!, byId.get(e.to)!, e] as const)
    .filter(([a]) => a.layer === layer)
    .map(([a, b, e]) => `<line x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}" stroke="${e.stepFree ? '#475569' : '#dc2626'}" stroke-width="4"/>`);
  const dots = document.paths.nodes.filter((n) => n.layer === layer).map((n) => `<circle cx="${n.x}" cy="${n.y}" r="6" fill="#0f172a"/>`);
  const stops = document.paths.connectors.flatMap((c) =>
    c.nodes
      .map((id) => byId.get(id)!)
      .filter((n) => n.layer === layer)
      .map((n) => `<rect x="${n.x - 14}" y="${n.y - 14}" width="28" height="28" rx="4" fill="${CONNECTOR_COLOURS[c.kind]}"/><text x="${n.x}" y="${n.y - 22}" font-size="16" text-anchor="middle" font-family="sans-serif" fill="${CONNECTOR_COLOURS[c.kind]}">${c.name}</text>`),
  );
  const legs = routes.flatMap(({ result, colour, dash }) =>
    result.ok
      ? result.route.legs
          .filter((leg) => leg.layer === layer)
          .map((leg) => `<polyline points="${leg.points.map((p) => `${p.x},${p.y}`).join(' ')}" fill="none" stroke="${colour}" stroke-width="9" stroke-dasharray="${dash}" stroke-linejoin="round" opacity="0.85"/>`)
      : [],
  );
  const labels = document.locations
    .filter((l) => l.layer === layer && l.position)
    .map((l) => `<text x="${l.position!.x}" y="${l.position!.y}" font-size="14" text-anchor="middle" font-family="sans-serif" fill="#334155">${l.title.replace(/&/g, '&amp;')}</text>`);
  return [...lines, ...legs, ...dots, ...stops, ...labels].join('\n');
}

await mkdir(OUT_DIR, { recursive: true });
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  for (const layer of document.layers) {
    const plan = readFileSync(path.join(import.meta.dirname, `../client/public${layer.file!.url}`), 'utf8');
    const svg = plan.replace('</svg>', `${overlay(layer.id)}\n</svg>`);
    await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
    const file = path.join(OUT_DIR, `route-network-${layer.id}.png`);
    await page.screenshot({ path: file });
    console.log(file);
  }
} finally {
  await browser.close();
}
