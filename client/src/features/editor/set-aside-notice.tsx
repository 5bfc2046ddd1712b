/**
 * Says above the map that it is set aside: the server could not apply one of its changes, so
 * its saved copy (what the editor loads, and its published page) stays as it was before until
 * the team repairs it. Without it the editor would look stale or blank with no reason given.
 * Asked when the editor opens, and again when the map's revision moves (a change arrived) and
 * once more a little later: the server sets a map aside only after retrying for a few seconds.
 */
import { useEffect, useState } from 'react';
import { MAP_SET_ASIDE_NOTICE, MapSetAside } from '../../../../events/map-set-aside';
import { api } from '../../lib/api';
import type { EditorSession } from './editor-session';
import './access-banner.css';

/** How long after a change the server is asked again (its retries before setting a map aside take about 6 s). */
const RECHECK_MS = 15_000;

export interface SetAsideNoticeProps {
  mapId: string;
  session: EditorSession;
  /** False for a map opened to explore (someone else's public copy): not theirs to be told about. */
  active: boolean;
}

export function SetAsideNotice({ mapId, session, active }: SetAsideNoticeProps) {
  const [setAside, setSetAside] = useState<MapSetAside['setAside']>(null);

  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    let asking = false;
    let later: ReturnType<typeof setTimeout> | undefined;
    const ask = () => {
      // Changes come with every collaborator's edit: one question at a time is enough.
      if (asking) return;
      asking = true;
      api
        .get(`/api/maps/${encodeURIComponent(mapId)}/set-aside`, MapSetAside, { signal: controller.signal })
        .then(({ result }) => setSetAside(result.setAside))
        // Unknown is not set aside: the notice is for what the server says, never a guess.
        .catch(() => {})
        .finally(() => {
          asking = false;
        });
    };
    ask();
    let seen = session.revision;
    const stop = session.subscribe(() => {
      if (session.revision === seen) return;
      seen = session.revision;
      ask();
      clearTimeout(later);
      later = setTimeout(ask, RECHECK_MS);
    });
    return () => {
      controller.abort();
      clearTimeout(later);
      stop();
    };
  }, [mapId, session, active]);

  if (!active || !setAside) return null;
  return (
    <div className="ed-access" role="alert" data-access="set-aside">
      <p>
        <strong>{MAP_SET_ASIDE_NOTICE}</strong> Its saved copy, and its published page, stay as they were before the change that could not be applied.
        Reference: <code>{setAside.reference}</code>
      </p>
    </div>
  );
}
