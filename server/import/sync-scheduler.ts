/**
 * Scheduled syncs of maps' data sources (issue 30 item 4), like the publish scheduler
 * (server/publishing/publish-scheduler.ts): every process may run one. It finds the due
 * sources in the `map_data_sources` read model and claims each through the one append path:
 * the map decider's `StartScheduledSync` records a `MapDataSourceSyncStarted` only while the
 * source is due, and the command handler appends it at the stream's expected revision, so of
 * several processes one claims a sync and the others, deciding again on the newer stream,
 * record nothing and do not run it. The claimant fetches and imports (map-sync.ts); a failure
 * is recorded once (`MapDataSourceSyncFailed`, the map keeps its last good data) and cleared
 * by the next sync that works.
 *
 * Time comes from the clock (server/clock.ts): tests move it and call `tick()`, no sleeping.
 */
import { DomainError } from '../../events/errors.js';
import { dueSyncs } from '../../projections/map-data-sources.js';
import type { Clock, IdGenerator } from '../clock.js';
import { runMapCommand, type MapCommandDeps } from '../commands/map-commands.js';
import { PeriodicTask } from '../jobs/periodic-task.js';
import { SCHEDULER_PRINCIPAL } from '../publishing/publish-scheduler.js';
import type { Mailer } from '../mail/mailer.js';
import type { MapSync } from './map-sync.js';

/** How often the due syncs are looked at. */
export const SYNC_SCHEDULER_EVERY_MS = 60_000;

export interface SyncSchedulerOptions {
  deps: MapCommandDeps & { ids: IdGenerator };
  mapSync: MapSync;
  clock: Clock;
  logger: { info(details: object, message: string): void; warn(details: object, message: string): void; error(details: object, message: string): void };
  everyMs?: number;
  /** Mails the map's owner when its source starts failing (once per failing stretch). */
  mailer?: Mailer;
  /** Links in the mail point here. */
  publicUrl?: string;
}

export class SyncScheduler extends PeriodicTask<number> {
  constructor(private readonly options: SyncSchedulerOptions) {
    super(options.everyMs ?? SYNC_SCHEDULER_EVERY_MS, (error) => options.logger.error({ err: error }, 'the due syncs could not be looked at; tried again at the next tick'));
  }

  /** The sync it runs (another process's scheduler in a test shares it). */
  get mapSync(): MapSync {
    return this.options.mapSync;
  }

  /** Runs every sync due now that this process claims; answers how many it ran. */
  protected runOnce(): Promise<number> {
    return this.syncDue();
  }

  private async syncDue(): Promise<number> {
    const { deps, clock, logger, mapSync } = this.options;
    const now = clock.now();
    const meta = () => ({ principal: SCHEDULER_PRINCIPAL, now, correlationId: deps.ids.uuid(), commandId: deps.ids.uuid() });
    let ran = 0;
    for (const mapId of await dueSyncs(deps.db, now)) {
      try {
        const claim = await runMapCommand(deps, { type: 'StartScheduledSync', data: { mapId } }, meta());
        if (claim.events.length === 0) continue;
        ran++;
        let error: string | null = null;
        try {
          await mapSync.syncNow(mapId, SCHEDULER_PRINCIPAL, meta(), () => deps.ids.uuid(), logger);
        } catch (failure) {
          if (!(failure instanceof DomainError)) throw failure;
          error = failure.message;
        }
        const outcome = await runMapCommand(deps, { type: 'RecordSyncOutcome', data: { mapId, error } }, meta());
        if (error !== null && outcome.events.length > 0) await this.mailOwner(mapId, error);
      } catch (error) {
        logger.error({ err: error, mapId }, 'a scheduled sync failed; tried again when it is next due');
      }
    }
    return ran;
  }

  /** The owner hears once that the map's source stopped working (the map keeps its data). */
  private async mailOwner(mapId: string, error: string): Promise<void> {
    const { deps, mailer, logger } = this.options;
    if (!mailer || !deps.history) return;
    const state = (await deps.history.stateAt(mapId)).state;
    if (state.status !== 'active') return;
    const found = await deps.db.query<{ email: string }>('SELECT email FROM auth_accounts WHERE uid = $1', [state.uid]).catch(() => ({ rows: [] as Array<{ email: string }> }));
    const email = found.rows[0]?.email;
    if (!email) return;
    const link = `${(this.options.publicUrl ?? '').replace(/\/+$/, '')}/maps/${encodeURIComponent(mapId)}`;
    const text = `The data source of your map “${state.title}” could not be synced: ${error}\n\nThe map keeps its last synced data. Check the address in the map's Data panel (${link}); the next sync that works clears this. You will not be mailed again until then.`;
    await mailer
      .send({ to: email, subject: `Syncing “${state.title}” failed`, text, html: `<p>${escapeHtml(text).replace(/\n\n/g, '</p><p>')}</p>` })
      .catch((failure: unknown) => logger.error({ err: failure, mapId }, 'the failed sync’s mail could not be sent'));
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
