/**
 * The server as `npm start` and the Docker image run it: its compiled copy
 * (`node dist/node/server/main.js`, scripts/build-server.ts), compiled first when missing or
 * older than its sources, so a bench measures what production runs, not tsx's loader.
 */
import path from 'node:path';
import { serverStaleness } from '../../scripts/build-if-stale.js';
import { buildServer, SERVER_ENTRY } from '../../scripts/build-server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Node's arguments that start the compiled server (compiled now if it is stale). */
export async function compiledServerArgs(): Promise<string[]> {
  if (serverStaleness(ROOT).stale) await buildServer(ROOT);
  return [path.join(ROOT, SERVER_ENTRY)];
}

/** How a bench's printout names the command. */
export const COMPILED_SERVER_COMMAND = `node ${SERVER_ENTRY}`;
