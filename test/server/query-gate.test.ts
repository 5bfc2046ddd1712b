/**
 * The embedded database's turns (server/db/query-gate.ts, issue 26 item 8): one piece of work at
 * a time; when others wait, the event loop gets a turn before the next starts; people's
 * requests and the service's own work (ports/background-work.ts) alternate while both wait, so
 * neither waits behind a backlog of the other. A gate that put requests first starved the
 * projections under steady traffic, and a new map answered "Map not found" to its own author.
 */
import { describe, expect, it } from 'vitest';
import { inBackground, runInBackground } from '../../ports/background-work.js';
import { QueryGate } from '../../server/db/query-gate.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the embedded database gate', () => {
  it('runs one piece at a time and lets the event loop turn between two', async () => {
    const gate = new QueryGate();
    const order: string[] = [];
    const first = deferred();
    const running = gate.run(async () => {
      order.push('first');
      await first.promise;
    });
    const second = gate.run(async () => void order.push('second'));
    // Something the event loop has to do meanwhile (a request arriving, say).
    setImmediate(() => order.push('event loop'));
    await Promise.resolve();
    expect(order).toEqual(['first']);
    expect(gate.waiting).toBe(1);
    first.resolve();
    await Promise.all([running, second]);
    expect(order).toEqual(['first', 'event loop', 'second']);
  });

  it('alternates between the service’s work and requests while both wait', async () => {
    const gate = new QueryGate();
    const order: string[] = [];
    const first = deferred();
    const running = gate.run(() => first.promise);
    const projections = [1, 2, 3].map((n) => runInBackground(() => gate.run(async () => void order.push(`projection ${n}`))));
    const requests = [1, 2, 3, 4].map((n) => gate.run(async () => void order.push(`request ${n}`)));
    first.resolve();
    await Promise.all([running, ...projections, ...requests]);
    expect(order).toEqual(['projection 1', 'request 1', 'projection 2', 'request 2', 'projection 3', 'request 3', 'request 4']);
  });

  it('lets requests go after a long piece of the service’s work for as long as it took, then the service again', async () => {
    // A clock the pieces move: a projection's piece takes 100 ms, a request's query 10 ms.
    let clock = 0;
    const gate = new QueryGate(() => clock);
    const order: string[] = [];
    const first = deferred();
    const running = gate.run(() => first.promise);
    const projections = [1, 2, 3].map((n) =>
      runInBackground(() =>
        gate.run(async () => {
          order.push(`projection ${n}`);
          clock += 100;
        }),
      ),
    );
    const requests = Array.from({ length: 25 }, (_, i) =>
      gate.run(async () => {
        order.push(`request ${i + 1}`);
        clock += 10;
      }),
    );
    first.resolve();
    await Promise.all([running, ...projections, ...requests]);
    const requestsAfter = (n: number) => {
      const from = order.indexOf(`projection ${n}`) + 1;
      const next = order.findIndex((entry, i) => i >= from && entry.startsWith('projection'));
      return (next === -1 ? order.slice(from) : order.slice(from, next)).length;
    };
    // Ten requests' worth of time after each piece (one at a time in alternation gave one each).
    expect(order[0]).toBe('projection 1');
    expect(requestsAfter(1)).toBe(10);
    expect(requestsAfter(2)).toBe(10);
    expect(requestsAfter(3)).toBe(5);
    expect(order.filter((entry) => entry.startsWith('request'))).toEqual(Array.from({ length: 25 }, (_, i) => `request ${i + 1}`));
  });

  it('keeps the service’s work going under a steady stream of requests, and requests going under a backlog of it', async () => {
    const gate = new QueryGate();
    let requestsServed = 0;
    let stop = false;
    // Two clients that always have a request waiting.
    const client = async () => {
      while (!stop) {
        await gate.run(async () => void requestsServed++);
      }
    };
    const clients = [client(), client()];
    // A projection applying ten pieces one after another (each marked as the service's own work).
    let applied = 0;
    const projection = runInBackground(async () => {
      for (let piece = 0; piece < 10; piece++) {
        expect(inBackground()).toBe(true);
        await gate.run(async () => void applied++);
      }
    });
    await projection;
    const servedMeanwhile = requestsServed;
    stop = true;
    await Promise.all(clients);
    expect(applied).toBe(10);
    // Every other turn: the ten pieces went in about twenty turns, with requests served between them.
    expect(servedMeanwhile).toBeGreaterThanOrEqual(9);
    expect(servedMeanwhile).toBeLessThanOrEqual(12);
  });

  it('lets the event loop take a turn when one worker’s pieces follow each other without it', async () => {
    // One worker awaiting its queries one after another goes from piece to piece in microtasks:
    // nobody waits at the gate, because a request is only there once the event loop read it.
    let clock = 0;
    const gate = new QueryGate(() => clock);
    const order: string[] = [];
    const worker = runInBackground(async () => {
      for (let piece = 1; piece <= 5; piece++) {
        await gate.run(async () => {
          order.push(`piece ${piece}`);
          clock += 100;
        });
      }
    });
    // A request arriving meanwhile: read by the event loop, then at the gate.
    setImmediate(() => void gate.run(async () => void order.push('request')));
    await worker;
    await gate.run(async () => {});
    expect(order).toContain('request');
    expect(order.indexOf('request')).toBeLessThan(order.indexOf('piece 3'));
    // Short pieces (under 10 ms since the loop's last turn) go on at once.
    const quick = new QueryGate(() => clock);
    const quickOrder: string[] = [];
    const quickWorker = (async () => {
      for (let piece = 1; piece <= 3; piece++) await quick.run(async () => void quickOrder.push(`piece ${piece}`));
    })();
    setImmediate(() => quickOrder.push('event loop'));
    await quickWorker;
    expect(quickOrder).toEqual(['piece 1', 'piece 2', 'piece 3']);
  });

  it('goes on after a piece of work that failed', async () => {
    const gate = new QueryGate();
    await expect(gate.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(gate.run(async () => 'next')).resolves.toBe('next');
  });
});
