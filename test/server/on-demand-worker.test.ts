/**
 * The worker lifecycle the import planner, the SVG sanitiser and the place search share
 * (server/workers/on-demand-worker.ts), with a tiny worker: started by the first request,
 * a request past its time or a worker that exits refuses what waits on it and the next request
 * gets a new worker, ended when idle unless the pool is still busy, time limits from `ready`.
 */
import { describe, expect, it, vi } from 'vitest';
import { OnDemandWorker, type OnDemandWorkerOptions } from '../../server/workers/on-demand-worker.js';

type Request = { id: number; op: 'echo' | 'hang' | 'exit'; value?: string };
type Answer = { id: number; value: string };

const entry = new URL('../support/workers/echo-worker.mjs', import.meta.url);
const lostError = (loss: 'timeout' | 'exit' | Error) => new Error(typeof loss === 'string' ? `lost: ${loss}` : loss.message);

function pool(options: Partial<OnDemandWorkerOptions> = {}) {
  return new OnDemandWorker<Request, Answer>({ entry, defaults: { maxMemoryMb: 64, timeoutMs: 5_000, idleMs: 60_000 }, lostError, ...options });
}

describe('a worker started on demand', () => {
  it('starts with the first request and answers each by its id', async () => {
    const worker = pool();
    try {
      expect(worker.running).toBe(false);
      const answers = await Promise.all(['a', 'b', 'c'].map((value) => worker.ask({ op: 'echo', value })));
      expect(answers.map((answer) => answer.value)).toEqual(['a', 'b', 'c']);
      expect(worker.running).toBe(true);
    } finally {
      await worker.close();
    }
    expect(worker.running).toBe(false);
  });

  it('refuses a request past its time, ends that worker, and answers the next from a new one', async () => {
    const worker = pool({ limits: { timeoutMs: 300 }, waitsForReady: true });
    try {
      const first = worker.started();
      await expect(worker.ask({ op: 'hang' })).rejects.toThrow('lost: timeout');
      expect(worker.running).toBe(false);
      expect((await worker.ask({ op: 'echo', value: 'again' })).value).toBe('again');
      expect(worker.current).not.toBe(first);
    } finally {
      await worker.close();
    }
  });

  it('refuses what waits on a worker that exits, and tells the pool', async () => {
    const lost = vi.fn();
    const worker = pool({ onLost: lost });
    try {
      const hanging = worker.ask({ op: 'hang' });
      await expect(worker.ask({ op: 'exit' })).rejects.toThrow('lost: exit');
      await expect(hanging).rejects.toThrow('lost: exit');
      expect(lost).toHaveBeenCalled();
      expect((await worker.ask({ op: 'echo', value: 'new' })).value).toBe('new');
    } finally {
      await worker.close();
    }
  });

  it('ends when idle, but not while the pool says it is busy', async () => {
    let busy = true;
    const worker = pool({ limits: { idleMs: 50 }, busy: () => busy });
    try {
      await worker.ask({ op: 'echo', value: 'x' });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(worker.running).toBe(true);
      busy = false;
      worker.exitWhenIdle();
      await vi.waitFor(() => expect(worker.running).toBe(false), { timeout: 5_000 });
    } finally {
      await worker.close();
    }
  });

  it('with waitsForReady, counts a request’s time from the worker’s ready, not its start', async () => {
    // The worker takes requests 200 ms after it starts: a 150 ms limit counted from the start refuses.
    const fromStart = pool({ limits: { timeoutMs: 150 } });
    const fromReady = pool({ limits: { timeoutMs: 150 }, waitsForReady: true });
    try {
      await expect(fromStart.ask({ op: 'echo', value: 'late' })).rejects.toThrow('lost: timeout');
      expect((await fromReady.ask({ op: 'echo', value: 'ready' })).value).toBe('ready');
    } finally {
      await Promise.all([fromStart.close(), fromReady.close()]);
    }
  });
});
