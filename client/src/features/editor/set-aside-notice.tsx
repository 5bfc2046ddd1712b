/**
 * Says above the map that it is set aside: the server could not apply one of its changes, so
 * what the editor shows is the map as it was before (its published page too) until the team
 * repairs it. Without it the editor would look stale or blank with no reason given. Asked when
 * the editor opens and again at each push on the map's topic (the server pushes one when it
 * sets the map aside, and when it repairs it).
 */
import { useEffect, useState } from 'react';
import { MAP_SET_ASIDE_NOTICE, MapSetAside } from '../../../../events/map-set-aside';
import { topics } from '../../../../events/topics';
import { api } from '../../lib/api';
import { useOptionalLiveClient } from '../../lib/live';
import './access-banner.css';

export interface SetAsideNoticeProps {
  mapId: string;
  /** False for a map opened to explore (someone else's public copy): not theirs to be told about. */
  active: boolean;
}

export function SetAsideNotice({ mapId, active }: SetAsideNoticeProps) {
  // Optional: an editor rendered on its own (tests of its panels) has no live client.
  const live = useOptionalLiveClient();
  const [setAside, setSetAside] = useState<MapSetAside['setAside']>(null);

  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    let asking = false;
    const ask = () => {
      // Pushes come with every collaborator's edit: one question at a time is enough.
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
    const stop = live?.subscribe(topics.map(mapId), ask);
    return () => {
      controller.abort();
      stop?.();
    };
  }, [live, mapId, active]);

  if (!active || !setAside) return null;
  return (
    <div className="ed-access" role="alert" data-access="set-aside">
      <p>
        <strong>{MAP_SET_ASIDE_NOTICE}</strong> You are seeing the map as it was before the change that could not be applied; its published page shows that
        version too. Reference: <code>{setAside.reference}</code>
      </p>
    </div>
  );
}
