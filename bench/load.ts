/**
 * HTTP load with autocannon (its programmatic API): a number of connections each sending the
 * next request as soon as the last is answered, for a fixed time, then requests per second
 * (the mean of its per-second samples), latency percentiles, the bytes of a whole response
 * (headers and body, as read from the socket), and the answers by status code, so a run that
 * was meant to measure 304s and got 200s (or errors) says so instead of printing a figure.
 */
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
  /** The status every answer should have. */
  expect: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Mean bytes of one response on the wire, headers included. */
  bytesPerResponse: number;
  /** Answers with another status than expected (by status), socket errors and timeouts. */
  unexpected: Record<string, number>;
  /** Every answer received. */
  answers: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    headers: options.headers,
    connections: options.connections,
    duration: options.seconds,
  });
  const statuses = Object.entries(result.statusCodeStats ?? {}).map(([status, stat]) => [status, Number(stat.count ?? 0)] as const);
  const answers = statuses.reduce((sum, [, count]) => sum + count, 0);
  const unexpected: Record<string, number> = Object.fromEntries(statuses.filter(([status, count]) => status !== String(options.expect) && count > 0));
  // autocannon counts timeouts among its errors.
  if (result.timeouts > 0) unexpected.timeouts = result.timeouts;
  if (result.errors - result.timeouts > 0) unexpected['socket errors'] = result.errors - result.timeouts;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    bytesPerResponse: answers > 0 ? result.throughput.total / answers : 0,
    unexpected,
    answers,
  };
}
