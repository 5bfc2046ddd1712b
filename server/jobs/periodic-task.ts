/**
 * A piece of work run every so often in the background (the publish scheduler, the data-source
 * sync scheduler): started with the server, stopped with it. One run at a time: a tick while
 * one runs (a slow run past the next interval, a test's `tick()` beside the timer's) joins the
 * running one instead of starting another. A run that throws from the timer is logged, never an
 * unhandled rejection; `tick()` answers the run's own promise, so a caller sees what it gives.
 * The timer does not keep a process (a CLI, a test) alive.
 *
 * Subclasses say what one run does ({@link PeriodicTask.runOnce}); tests call `tick()` after
 * moving their clock instead of waiting for the interval.
 */
export abstract class PeriodicTask<T> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<T> | null = null;

  protected constructor(
    private readonly everyMs: number,
    /** Told of a timer's run that failed as a whole (a single item's failure is the run's to log). */
    private readonly onTickError: (error: unknown) => void,
  ) {}

  /** One run of the work. */
  protected abstract runOnce(): Promise<T>;

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick().catch(this.onTickError), this.everyMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run under way to finish. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running?.catch(() => {});
  }

  /** Runs the work now, or joins the run under way; answers what the run answers. */
  tick(): Promise<T> {
    this.running ??= this.runOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
