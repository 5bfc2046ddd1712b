/**
 * The embedded database's turns (server/db/query-gate.ts, issue 26 item 8): one piece of work at
 * a time; when others wait, the event loop gets a turn before the next starts; a request's work
 * goes before the service's own (ports/background-work.ts), which still goes once it has waited
 * half a second.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runInBackground } from '../../ports/background-work.js';
import { QueryGate } from '../../server/db/query-gate.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the embedded database gate', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs one piece at a time, a request before the service’s own work, and lets the event loop turn between two', async () => {
    const gate = new QueryGate();
    const order: string[] = [];
    const first = deferred();
    const running = gate.run(async () => {
      order.push('first');
      await first.promise;
    });
    const background = runInBackground(() => gate.run(async () => void order.push('projection')));
    const request = gate.run(async () => void order.push('request'));
    // Something the event loop has to do meanwhile (a request arriving, say).
    setImmediate(() => order.push('event loop'));
    await Promise.resolve();
    expect(order).toEqual(['first']);
    first.resolve();
    await Promise.all([running, background, request]);
    expect(order).toEqual(['first', 'event loop', 'request', 'projection']);
  });

  it('lets the service’s own work go once it has waited half a second, requests or not', async () => {
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const gate = new QueryGate();
    const order: string[] = [];
    const first = deferred();
    const running = gate.run(() => first.promise);
    const background = runInBackground(() => gate.run(async () => void order.push('projection')));
    const requests = [1, 2].map((n) => gate.run(async () => void order.push(`request ${n}`)));
    now += 500;
    first.resolve();
    await Promise.all([running, background, ...requests]);
    expect(order).toEqual(['projection', 'request 1', 'request 2']);
  });

  it('lets a backlog of the service’s overdue work go one piece per half second while requests wait', async () => {
    let now = 1_000;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const gate = new QueryGate();
    const order: string[] = [];
    const first = deferred();
    const running = gate.run(() => first.promise);
    const projections = [1, 2, 3].map((n) => runInBackground(() => gate.run(async () => void order.push(`projection ${n}`))));
    const requests = [1, 2].map((n) => gate.run(async () => void order.push(`request ${n}`)));
    now += 600;
    first.resolve();
    await Promise.all([running, ...projections, ...requests]);
    expect(order).toEqual(['projection 1', 'request 1', 'request 2', 'projection 2', 'projection 3']);
  });

  it('goes on after a piece of work that failed', async () => {
    const gate = new QueryGate();
    await expect(gate.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(gate.run(async () => 'next')).resolves.toBe('next');
  });
});
