/**
 * The browser builds' manifests (`build.manifest` in vite.config.ts): which files a source
 * module's chunk is, and which chunks and stylesheets it imports. Pages served or prerendered
 * from the build link what their first render will load, so the browser fetches it beside the
 * entry instead of after it: the marketing pages (scripts/prerender-pages.ts), from the app's
 * manifest (dist/client/.vite/manifest.json), and a published map's page
 * (public-maps/ssr-viewer-page.ts), from the viewer's (dist/client/.vite/viewer-manifest.json):
 * the viewer is a build of its own, on Preact, whose chunks are not the app's.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}
export type ClientManifest = Record<string, ManifestChunk>;

/** The app's build's manifest (index.html and the marketing pages), relative to dist/client. */
export const APP_MANIFEST = '.vite/manifest.json';
/** The viewer's build's manifest (viewer.html), relative to dist/client. */
export const VIEWER_MANIFEST = '.vite/viewer-manifest.json';

/** A manifest of a built client (the app's by default), or null when there is none (a client built without it, or none). */
export async function readClientManifest(clientDist: string, manifest: typeof APP_MANIFEST | typeof VIEWER_MANIFEST = APP_MANIFEST): Promise<ClientManifest | null> {
  try {
    return JSON.parse(await readFile(path.join(clientDist, manifest), 'utf8')) as ClientManifest;
  } catch {
    return null;
  }
}

/**
 * The stylesheets and scripts (addresses from the site's root) of these modules' chunks and all
 * they import, entries left out (their page links them already). Modules the manifest does not
 * have are in `missing`.
 */
export function assetsOf(manifest: ClientManifest, modules: readonly string[]): { css: string[]; scripts: string[]; missing: string[] } {
  const css = new Set<string>();
  const scripts = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key) || chunk.isEntry) return;
    seen.add(key);
    scripts.add(`/${chunk.file}`);
    for (const file of chunk.css ?? []) css.add(`/${file}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const missing = modules.filter((module) => !manifest[module]);
  for (const module of modules) visit(module);
  return { css: [...css], scripts: [...scripts], missing };
}
