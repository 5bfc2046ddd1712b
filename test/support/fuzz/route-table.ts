/**
 * Every route a Fastify app serves, read from its own route tree (`printRoutes`), so a guard
 * that walks them cannot miss a route added later.
 */
import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: string;
  /** The route's URL pattern, e.g. `/api/maps/:id/data`. */
  url: string;
}

/** Parses the tree `printRoutes({commonPrefix: false})` draws: four columns per level. */
export function routeTable(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([\s│├└─]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = Math.round(match[1]!.length / 4);
    stack.length = depth;
    stack[depth] = match[2]!;
    if (!match[3]) continue;
    const url = stack.join('');
    for (const method of match[3].split(',').map((m) => m.trim())) routes.push({ method, url });
  }
  return routes;
}
