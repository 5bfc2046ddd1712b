/**
 * A Vite plugin: `import messages from 'virtual:viewer-messages/es'` is the Spanish catalogue
 * of the viewer, compiled at build time (scripts/viewer-messages.ts). Used by the browser's
 * build, the server renderer's build and the tests (vitest.config.ts), so all three read the
 * same compiled messages.
 */
import type { Plugin } from 'vite';
import { compileCatalogue, sourceFiles } from './viewer-messages';

const PREFIX = 'virtual:viewer-messages/';
const RESOLVED = '\0viewer-messages:';

export function viewerMessages(): Plugin {
  return {
    name: 'mapfold-viewer-messages',
    resolveId(id) {
      return id.startsWith(PREFIX) ? RESOLVED + id.slice(PREFIX.length) : null;
    },
    load(id) {
      if (!id.startsWith(RESOLVED)) return null;
      const locale = id.slice(RESOLVED.length);
      if (!/^[a-z]{2,3}$/.test(locale)) throw new Error(`No viewer catalogue named ${locale}`);
      for (const file of sourceFiles(locale)) this.addWatchFile(file);
      return `export default ${JSON.stringify(compileCatalogue(locale))};`;
    },
  };
}
