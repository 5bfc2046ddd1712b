/**
 * Prerenders the marketing pages (`npm run build`, after both Vite builds): for each path of
 * `marketingPaths`, the app's markup as the browser's first render gives it
 * (dist/server/pages-server.js) inside the built index.html, with the page's title and
 * description, and the stylesheets and script of its own chunk linked from the head (a page
 * loaded on demand would otherwise be painted unstyled until its chunk came). Written to
 * dist/client/pages/{path}.html (`/` is pages/index.html), compressed beside itself like every
 * built file; the server sends it for that path (server/http/prerendered-pages.ts) and main.tsx
 * hydrates it. No inline script or style: the Content-Security-Policy allows none.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { assetsOf, readClientManifest } from '../server/client-manifest';
import { PRERENDERED_DIR, prerenderedPageFile } from '../server/http/prerendered-pages';
import { precompressDirectory } from './precompress-plugin';

const root = path.resolve(import.meta.dirname, '..');
const clientDist = path.join(root, 'dist/client');
const pagesDir = path.join(clientDist, PRERENDERED_DIR);

/** The module of each path's page, as the client's manifest names it (the router's lazy imports). */
const PAGE_MODULES: Record<string, string[]> = {
  '/pricing': ['src/app/routes/pricing.tsx'],
  '/estimate': ['src/app/routes/estimate.tsx'],
  '/wayfinding': ['src/app/routes/wayfinding.tsx'],
  '/contact': ['src/app/routes/contact.tsx'],
  '/case-study/real-estate': ['src/app/routes/case-studies.tsx'],
  '/case-study/retail': ['src/app/routes/case-studies.tsx'],
  '/case-study/geographic': ['src/app/routes/case-studies.tsx'],
  '/terms': ['src/features/marketing/components/legal-page.tsx', 'src/features/marketing/components/legal-terms.tsx'],
  '/privacy': ['src/features/marketing/components/legal-page.tsx', 'src/features/marketing/components/legal-privacy.tsx'],
  '/agreement': ['src/features/marketing/components/legal-page.tsx', 'src/features/marketing/components/legal-agreement.tsx'],
};

const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

async function main(): Promise<void> {
  const template = readFileSync(path.join(clientDist, 'index.html'), 'utf8');
  const manifest = await readClientManifest(clientDist);
  if (!manifest) throw new Error('dist/client has no .vite/manifest.json: build the client first.');
  const { prerenderPage, marketingPaths } = (await import(pathToFileURL(path.join(root, 'dist/server/pages-server.js')).href)) as typeof import('../client/src/pages-server');
  if (!template.includes('<div id="root"></div>')) throw new Error('dist/client/index.html has no empty <div id="root"></div> to fill.');
  rmSync(pagesDir, { recursive: true, force: true });
  for (const pathname of marketingPaths) {
    const page = await prerenderPage(pathname);
    const { css, scripts, missing } = pathname in PAGE_MODULES ? assetsOf(manifest, PAGE_MODULES[pathname]!) : { css: [], scripts: [], missing: [] };
    if (missing.length) throw new Error(`The client's manifest has no ${missing.join(', ')}: update PAGE_MODULES in scripts/prerender-pages.ts.`);
    const links = [...css.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`), ...scripts.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`)].join('\n    ');
    let html = template.replace('<div id="root"></div>', () => `<div id="root">${page.html}</div>`);
    if (page.title) html = html.replace(/<title>[^<]*<\/title>/, () => `<title>${page.title}</title>`);
    if (page.description) html = html.replace(/<meta name="description" content="[^"]*"\s*\/?>/, () => `<meta name="description" content="${escapeAttribute(page.description!)}" />`);
    if (links) html = html.replace('</head>', () => `  ${links}\n  </head>`);
    const file = path.join(pagesDir, prerenderedPageFile(pathname));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, html);
  }
  precompressDirectory(pagesDir);
  console.log(`prerendered ${marketingPaths.length} pages into ${path.relative(root, pagesDir)}/`);
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) await main();
