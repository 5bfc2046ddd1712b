/**
 * Scheduled publishing (issue 27): publishes each map's scheduled revision once its time has
 * come. It follows the log through the `map_publication` read model (the schedules the log
 * holds, with when each is due), and publishes through the one append path: the map decider's
 * `RunScheduledPublish` records a `MapPublished` only while the schedule is on the stream and
 * due, and the command handler appends it with the stream's expected revision. Several
 * processes may run a scheduler at once: the first append wins, the others' fail on the
 * revision, decide again on the stream as it now is (no schedule left), and record nothing, so
 * a schedule is published exactly once. A read model behind the log only delays a publish to
 * the next tick; it can never repeat one.
 *
 * Time comes from the clock (server/clock.ts): tests move it and call `tick()`, no sleeping.
 */
import type { Principal } from '../../events/principal.js';
import { duePublishes } from '../../projections/map-publication.js';
import type { Clock, IdGenerator } from '../clock.js';
import { runMapCommand, type MapCommandDeps } from '../commands/map-commands.js';
import { PeriodicTask } from '../jobs/periodic-task.js';

/** Who the product acts as when it publishes on schedule; the event names who scheduled it. */
export const SCHEDULER_PRINCIPAL: Principal = {
  uid: 'mapfold-scheduler',
  email: '',
  emailVerified: true,
  displayName: 'Mapfold (scheduled)',
  admin: true,
  stripeRole: null,
};

/** How often the schedules are looked at: a publish happens at most this late. */
export const SCHEDULER_EVERY_MS = 10_000;

export interface PublishSchedulerOptions {
  deps: MapCommandDeps & { ids: IdGenerator };
  clock: Clock;
  logger: { error(details: object, message: string): void };
  everyMs?: number;
}

export class PublishScheduler extends PeriodicTask<number> {
  constructor(private readonly options: PublishSchedulerOptions) {
    super(options.everyMs ?? SCHEDULER_EVERY_MS, (error) => options.logger.error({ err: error }, 'the scheduled publishes could not be looked at; tried again at the next tick'));
  }

  /** Publishes every schedule due now; answers how many this process published. */
  protected runOnce(): Promise<number> {
    return this.publishDue();
  }

  private async publishDue(): Promise<number> {
    const { deps, clock, logger } = this.options;
    const now = clock.now();
    let published = 0;
    for (const mapId of await duePublishes(deps.db, now)) {
      try {
        const outcome = await runMapCommand(
          deps,
          { type: 'RunScheduledPublish', data: { mapId } },
          { principal: SCHEDULER_PRINCIPAL, now, correlationId: deps.ids.uuid(), commandId: deps.ids.uuid() },
        );
        if (outcome.events.length > 0) published++;
      } catch (error) {
        // One map's failure (deleted meanwhile, a conflict retried out) waits for the next tick; the others go on.
        logger.error({ err: error, mapId }, 'a scheduled publish failed; tried again at the next tick');
      }
    }
    return published;
  }
}
