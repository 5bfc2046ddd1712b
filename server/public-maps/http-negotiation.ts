/**
 * The request headers a cached answer depends on (RFC 9110): which content coding the client
 * takes (`Accept-Encoding`, §12.5.3) and whether it already holds this version
 * (`If-None-Match`, §13.1.2).
 *
 * Why not `@fastify/accept-negotiator` (what @fastify/static uses): it reads `*` as the
 * server's first choice even when the client refused that coding by name (`br;q=0, *` gives
 * `br`), while §12.5.3 says `*` stands only for codings the header does not name. The rule is
 * a few lines, written out here; answers are memoised per header text (a bounded LRU, since
 * the header is the client's to vary).
 */
import { LRUCache } from 'lru-cache';
import type { ContentCoding } from './encoded-body.js';

/** The server's preference among codings the client rates equally. */
const PREFERENCE: readonly ContentCoding[] = ['br', 'gzip', 'identity'];
/** Below the least weight a client can name (0.001). */
const IMPLICIT_IDENTITY = 0.0001;
const QVALUE = /^q=(0(\.\d{0,3})?|1(\.0{0,3})?)$/i;

const chosen = new LRUCache<string, ContentCoding | 'refused'>({ max: 512 });

/**
 * The coding to answer in: the acceptable one the client rates highest, ties to the smaller
 * (brotli, then gzip). No header: identity. Null when even identity is refused
 * (`identity;q=0` or `*;q=0` naming nothing acceptable); callers then send identity anyway,
 * as most servers do rather than 406.
 */
export function chooseEncoding(header: string | undefined): ContentCoding | null {
  if (header === undefined) return 'identity';
  const known = chosen.get(header);
  if (known !== undefined) return known === 'refused' ? null : known;
  const answer = negotiate(header);
  if (header.length <= 256) chosen.set(header, answer ?? 'refused');
  return answer;
}

function negotiate(header: string): ContentCoding | null {
  const rated = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim());
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = QVALUE.exec(param.replace(/\s+/g, ''));
      if (match) q = Number(match[1]);
      else if (/^q=/i.test(param)) q = 0; // a malformed weight: not a preference to act on
    }
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    // A coding named twice keeps its best weight.
    rated.set(coding, Math.max(rated.get(coding) ?? 0, q));
  }
  const star = rated.get('*');
  const weight = (coding: ContentCoding): number => {
    const own = rated.get(coding);
    if (own !== undefined) return own;
    if (star !== undefined) return star;
    // Identity is acceptable unless refused by name or by `*;q=0`, but below anything named.
    return coding === 'identity' ? IMPLICIT_IDENTITY : 0;
  };
  let best: ContentCoding | null = null;
  let bestWeight = 0;
  for (const coding of PREFERENCE) {
    const q = weight(coding);
    if (q > bestWeight) {
      best = coding;
      bestWeight = q;
    }
  }
  return best;
}

/**
 * Whether `If-None-Match` names the current representation: `*`, or a list of entity tags
 * compared weakly (`W/"x"` matches `"x"`), as §13.1.2 asks of GET and HEAD. A header that is
 * not a well-formed list matches nothing (the full answer is always safe).
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const trimmed = header.trim();
  if (trimmed === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  // An entity tag is `"` etagc* `"` (etagc excludes `"` but may hold commas), optionally W/.
  const item = /\s*(?:W\/)?("[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/y;
  let at = 0;
  while (at < trimmed.length) {
    item.lastIndex = at;
    const match = item.exec(trimmed);
    if (!match) return false;
    if (match[1] === opaque) return true;
    at = item.lastIndex;
    // Empty list elements (`"a", , "b"`) are allowed by the list syntax.
    while (trimmed[at] === ',' || trimmed[at] === ' ' || trimmed[at] === '\t') at++;
  }
  return false;
}
