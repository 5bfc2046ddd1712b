// Entry of the SVG sanitiser's worker thread (svg-sanitizer-pool.ts): the compiled worker beside
// it, or the TypeScript through tsx (server/workers/load-worker.mjs).
import { loadWorker } from '../workers/load-worker.mjs';

await loadWorker(import.meta.url, 'svg-sanitizer-worker');
