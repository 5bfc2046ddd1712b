/**
 * The background ticker both schedulers run on (server/jobs/periodic-task.ts): one run at a
 * time, stop waits for the run under way, a failing timer run is logged and the next goes on.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PeriodicTask } from '../../server/jobs/periodic-task.js';

class Counter extends PeriodicTask<number> {
  runs = 0;
  release: Array<() => void> = [];
  failNext = false;
  constructor(readonly errors: unknown[] = []) {
    super(1_000, (error) => errors.push(error));
  }
  protected async runOnce(): Promise<number> {
    const run = ++this.runs;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('boom');
    }
    await new Promise<void>((resolve) => this.release.push(resolve));
    return run;
  }
}

afterEach(() => {
  vi.useRealTimers();
});

describe('a periodic task', () => {
  it('joins a tick asked for while one runs instead of starting another', async () => {
    const task = new Counter();
    const first = task.tick();
    const second = task.tick();
    expect(second).toBe(first);
    await vi.waitFor(() => expect(task.release).toHaveLength(1));
    task.release.shift()!();
    expect(await first).toBe(1);
    const third = task.tick();
    await vi.waitFor(() => expect(task.release).toHaveLength(1));
    task.release.shift()!();
    expect(await third).toBe(2);
  });

  it('ticks on its timer, never two runs at once, logs a failing run and goes on', async () => {
    vi.useFakeTimers();
    const task = new Counter();
    task.start();
    task.start(); // a second start is no second timer
    await vi.advanceTimersByTimeAsync(1_000);
    expect(task.runs).toBe(1);
    await vi.advanceTimersByTimeAsync(3_000); // the run still under way: no other starts
    expect(task.runs).toBe(1);
    task.release.shift()!();
    task.failNext = true;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(task.runs).toBe(2);
    expect(task.errors).toEqual([new Error('boom')]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(task.runs).toBe(3);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stopped).toBe(false); // waits for the run under way
    task.release.shift()!();
    await stopping;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(task.runs).toBe(3); // no tick after stop
  });

  it('answers a direct tick with the run’s own failure', async () => {
    const task = new Counter();
    task.failNext = true;
    await expect(task.tick()).rejects.toThrow('boom');
    expect(task.errors).toEqual([]);
  });
});
