/**
 * Which database work is the service's own (projections, the live hub following the log) and
 * which is a person's request. On PGlite one backend runs everything in this process, one query
 * at a time, and each query holds the event loop while it runs; work queued behind a minute of
 * projection catch-up made every request wait that minute (issue 26 item 8). Work started in
 * {@link runInBackground} (and everything it awaits) is marked, and the embedded database lets
 * requests and that work take turns (server/db/query-gate.ts). PostgreSQL runs them side by side.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const background = new AsyncLocalStorage<true>();

/** Runs `work` (and whatever it starts) as the service's own work, in turn with people's requests. */
export function runInBackground<T>(work: () => T): T {
  return background.run(true, work);
}

/** Whether the caller runs as the service's own work. */
export function inBackground(): boolean {
  return background.getStore() === true;
}
