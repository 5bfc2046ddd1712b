// Entry of the place search's worker thread (place-search-pool.ts): the compiled worker beside
// it, or the TypeScript through tsx (server/workers/load-worker.mjs).
import { loadWorker } from '../workers/load-worker.mjs';

await loadWorker(import.meta.url, 'place-search-worker');
