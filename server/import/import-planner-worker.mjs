// Entry of the import planner's worker thread (import-planner-pool.ts): the compiled worker
// beside it, or the TypeScript through tsx (server/workers/load-worker.mjs).
import { loadWorker } from '../workers/load-worker.mjs';

await loadWorker(import.meta.url, 'import-planner-worker');
