/**
 * Shown when the server closed the live socket as speaking another protocol version (4426): the
 * page was loaded before Mapfold was updated, so nothing live will work until it is reloaded.
 */
import { OUTDATED_CLIENT_REASON } from '../../../events/live-messages';
import type { ConnectionState } from './live-client';
import './live-outdated.css';

export function LiveOutdatedNotice({ state }: { state: ConnectionState }) {
  if (state !== 'outdated') return null;
  return (
    <div className="live-outdated" role="alert">
      <span>{OUTDATED_CLIENT_REASON}.</span>
      <button type="button" className="live-outdated__reload" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}
