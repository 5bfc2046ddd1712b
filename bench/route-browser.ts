/** The routing benchmark's entry for Chromium (bundled by bench/route.ts): the same run, timed by the page's clock. */
import { runRouteBench } from './route-network.js';

(globalThis as unknown as { runRouteBench: typeof runRouteBench }).runRouteBench = runRouteBench;
