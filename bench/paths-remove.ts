/**
 * Path points removed in bulk (issue 26): one `PathsEdited` removing 10,000 ids the network lacks
 * from a network of 50,000 points, applied as `editMap` does (checked, then applied). Before the
 * fix a scan per id made this quadratic (a 2 MB editMap took 30 s); it should now take tens of
 * milliseconds. Run: `npx tsx bench/paths-remove.ts`.
 */
import { performance } from 'node:perf_hooks';
import { emptyMapDocument, type MapDocument } from '../events/map-document.js';
import { applyEdit, checkEdit } from '../events/map-edits.js';
import { MAX_PATH_NODES, PATHS_EDIT_CHUNK, type PathsEdit } from '../events/path-network.js';

const document: MapDocument = {
  ...emptyMapDocument(),
  paths: { nodes: Array.from({ length: MAX_PATH_NODES }, (_, i) => ({ id: `n${i}`, layer: 'ground', x: i % 1000, y: Math.floor(i / 1000) })), edges: [], connectors: [] },
};
const edit: PathsEdit = {
  type: 'PathsEdited',
  put: { nodes: [], edges: [], connectors: [] },
  removed: { nodes: Array.from({ length: PATHS_EDIT_CHUNK }, (_, i) => `unknown-${i}`), edges: [], connectors: [] },
};

const times: number[] = [];
for (let run = 0; run < 5; run++) {
  const started = performance.now();
  const problem = checkEdit(document, edit);
  if (problem) throw new Error(problem);
  applyEdit(document, edit);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
console.log(`paths-remove: ${PATHS_EDIT_CHUNK.toLocaleString('en')} unknown ids from ${MAX_PATH_NODES.toLocaleString('en')} points, check + apply: median ${times[2]!.toFixed(1)} ms (min ${times[0]!.toFixed(1)}, max ${times[4]!.toFixed(1)})`);
