/**
 * The comparison for the public read bench: a plain Fastify process (no plugins, no logger, no
 * database) answering from memory with the very bytes and headers the real server sent, captured
 * once (bench/captured-response.ts): per path, each encoding's body as the real server encoded
 * it, chosen by Accept-Encoding, and 304 to a matching If-None-Match. What it reaches on this
 * machine is the ceiling for the same answers; the real server's share of it is the ratio.
 *
 * Run as its own process, `node --import tsx bench/plain-server.ts <routes.json>` with PORT set,
 * by bench/plain-process.ts; it imports nothing of the product.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { chooseEncoding, etagMatches } from './negotiation.js';

/** One path's answers, as bench/plain-process.ts writes them for this process. */
export interface StoredRoute {
  path: string;
  variants: Array<{ encoding: string; headers: Record<string, string>; body: string }>;
  notModified: { etag: string; headers: Record<string, string> } | null;
}

function serve(routes: StoredRoute[], port: number): void {
  const app = Fastify({ logger: false });
  for (const route of routes) {
    const bodies = new Map(route.variants.map((variant) => [variant.encoding, { headers: variant.headers, body: Buffer.from(variant.body, 'base64') }]));
    // Brotli first, as the real server prefers it.
    const encodings = [...bodies.keys()].sort((a, b) => (a === 'br' ? -1 : b === 'br' ? 1 : 0));
    app.get(route.path, (request, reply) => {
      if (route.notModified && etagMatches(request.headers['if-none-match'], route.notModified.etag)) {
        return reply.code(304).headers(route.notModified.headers).send();
      }
      const chosen = bodies.get(chooseEncoding(request.headers['accept-encoding'], encodings)) ?? bodies.get('identity')!;
      return reply.headers(chosen.headers).send(chosen.body);
    });
  }
  app.listen({ port, host: '127.0.0.1' }).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  serve(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as StoredRoute[], Number(process.env.PORT));
}
