/**
 * The little HTTP negotiation the plain comparison server (bench/plain-server.ts) does, so it
 * answers like the real one: which stored encoding of a body an `Accept-Encoding` takes, and
 * whether an `If-None-Match` names the stored ETag. Per RFC 9110 §12.5.3 and §13.1.2.
 */

/** The codings an Accept-Encoding header accepts, with their weights (q=0 refuses). */
export function acceptedEncodings(header: string | undefined): Map<string, number> {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [rawName, ...params] = part.toLowerCase().split(';');
    const name = rawName?.trim();
    if (!name) continue;
    const q = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param)).find(Boolean);
    const weight = q ? Number(q[1]) : 1;
    accepted.set(name, Number.isFinite(weight) ? Math.min(1, Math.max(0, weight)) : 0);
  }
  return accepted;
}

/**
 * The first of `available` (in the server's order of preference, e.g. br before gzip) that the
 * header accepts, else 'identity'. A coding is accepted when named with q > 0, or when `*` is
 * (q > 0) and it is not named; without a header only identity is sent.
 */
export function chooseEncoding(header: string | undefined, available: readonly string[]): string {
  const accepted = acceptedEncodings(header);
  for (const encoding of available) {
    if (encoding === 'identity') continue;
    const weight = accepted.get(encoding) ?? accepted.get('*') ?? 0;
    if (weight > 0) return encoding;
  }
  return 'identity';
}

/** Whether If-None-Match matches the ETag: `*`, or any listed tag by weak comparison. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}
