/**
 * A licence gives its map 6 months of Basic usage; after that the map needs a slot (spec §1).
 * This sweep finds maps live on a licence whose period has ended, puts each back to a test map
 * and tells its owner why. Safe to run in several processes at once: the map's state change and
 * the owner's notice are both decided against their streams, so a second run changes nothing.
 */
import { MapState } from '../../events/map-states.js';
import type { CommandMetadata } from '../commands/command-handler.js';
import { setMapState, type MapCommandDeps } from '../commands/map-commands.js';
import { runCustomerCommand } from './billing-functions.js';

/** How often the sweep runs. */
export const LICENCE_SWEEP_EVERY_MS = 60 * 60 * 1000;

export async function expireLicences(deps: MapCommandDeps, now: Date, newId: () => string): Promise<number> {
  const { rows } = await deps.db.query<{ map_id: string; uid: string; title: string; basic_until: Date | string }>(
    `SELECT l.map_id, l.uid, m.title, l.basic_until FROM map_licences l JOIN maps_list m ON m.id = l.map_id
      WHERE l.basic_until <= $1 AND m.state = $2 AND m.subscribed = false`,
    [now.toISOString(), MapState.live],
  );
  for (const row of rows) {
    const meta: CommandMetadata = { principal: null, now, correlationId: `licence-expiry:${row.map_id}`, commandId: newId() };
    await setMapState(deps, { mapId: row.map_id, state: MapState.test, subscribed: false }, meta);
    await runCustomerCommand(deps, row.uid, { type: 'EndLicenceBasic', data: { mapId: row.map_id, title: row.title, basicUntil: new Date(row.basic_until).toISOString() } }, meta);
  }
  return rows.length;
}
