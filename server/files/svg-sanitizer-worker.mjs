// Entry of the SVG sanitiser's worker thread. The worker is TypeScript, loaded through tsx (a
// production dependency) whatever started the process: the tsx CLI, `node --import tsx`, or a
// test runner.
import { register } from 'tsx/esm/api';

register();
await import('./svg-sanitizer-worker.ts');
