/**
 * The real server, in process, for client tests that talk to it over HTTP and websockets:
 * the shared test server (app, event store, projections) on an in-memory PGlite database.
 */
import { pgliteTarget } from '../../support/databases.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

export { registerUser } from '../../support/test-server.js';

export interface AppServer extends TestServer {
  wsUrl: string;
}

export async function startAppServer(): Promise<AppServer> {
  const server = await startTestServer(pgliteTarget);
  return Object.assign(server, { wsUrl: `${server.url.replace('http', 'ws')}/api/live` });
}
