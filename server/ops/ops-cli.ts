/**
 * What the operations commands (rebuild, repair) share: the configured database and event
 * store, the projections named on the command line (all when none are), and a runner that
 * logs one line per entry to the console.
 */
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/open-database.js';
import { openKurrentDBEventStore } from '../event-store/kurrentdb-event-store.js';
import { PostgresEventStore } from '../event-store/postgres-event-store.js';
import { allProjections } from '../../projections/index.js';
import type { Projection } from '../../projections/projection.js';
import { ProjectionRunner } from '../../projections/runner.js';
import type { Database } from '../../ports/database.js';
import { withUpcasting, type EventStore } from '../../ports/event-store.js';
import { upcast } from '../../events/upcasters.js';

export interface OpsCli {
  db: Database;
  store: EventStore;
  projections: readonly Projection[];
  runner: ProjectionRunner;
  close(): Promise<void>;
}

/** The projections named in `argv` (all when none are); exits with 2 naming the unknown ones. */
export function projectionsNamed(names: readonly string[]): readonly Projection[] {
  const unknown = names.filter((name) => !allProjections.some((projection) => projection.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown projection: ${unknown.join(', ')}. Known: ${allProjections.map((p) => p.name).join(', ')}.`);
    process.exit(2);
  }
  return names.length > 0 ? allProjections.filter((projection) => names.includes(projection.name)) : allProjections;
}

/** One line per log entry: the message, the projection, and the error's own message. */
function line(details: object, message: string): string {
  const { projection, err } = details as { projection?: string; err?: unknown };
  return `${message}${projection ? ` (${projection})` : ''}${err instanceof Error ? `: ${err.message}` : ''}`;
}

export async function openOpsCli(names: readonly string[]): Promise<OpsCli> {
  const projections = projectionsNamed(names);
  const config = loadConfig();
  const db = await openDatabase(config);
  // Read as the app reads it: old events through the upcasters (events/upcasters.ts).
  const store = withUpcasting(config.eventStoreUrl ? await openKurrentDBEventStore(config.eventStoreUrl) : await PostgresEventStore.open(db), upcast);
  const runner = new ProjectionRunner(db, store, projections, {
    error: (details, message) => console.error(line(details, message)),
    warn: (details, message) => console.warn(line(details, message)),
  });
  return {
    db,
    store,
    projections,
    runner,
    async close() {
      await store.close();
      await db.close();
    },
  };
}
