// Entry of the import planner's worker thread (import-planner-pool.ts). The worker is
// TypeScript, loaded through tsx (a production dependency) whatever started the process, as the
// SVG sanitiser's worker is (server/files/svg-sanitizer-worker.mjs).
import { register } from 'tsx/esm/api';

register();
await import('./import-planner-worker.ts');
