/**
 * One response of the real server exactly as it went on the wire: status, headers, and the body
 * bytes undecoded (node:http, not fetch, which would decompress). The plain comparison server
 * replays them; the figures print their sizes.
 */
import http from 'node:http';

export interface CapturedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Headers the replaying server sets itself (per connection or per response). */
const NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export function capture(url: string, headers: Record<string, string>): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const kept: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (value === undefined || NOT_REPLAYED.has(name)) continue;
            kept[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({ status: response.statusCode ?? 0, headers: kept, body: Buffer.concat(chunks) });
        });
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The coding a captured response's body is in. */
export const encodingOf = (response: CapturedResponse): string => response.headers['content-encoding'] ?? 'identity';
