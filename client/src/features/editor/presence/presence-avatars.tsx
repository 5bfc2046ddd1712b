/**
 * Who is in the map now, in the editor's top bar: a round avatar per person (initials on their
 * colour), the first few and "+N" for the rest. Shown only when someone else is there (another
 * person, or this person's other tab): alone, the bar stays as it was. This tab's person comes
 * last, marked as "you"; a person's several tabs are one avatar ("2 tabs").
 *
 * Another person's avatar is a button: it brings the map to where they are (their pointer, or
 * else the location they have selected), switching floors if need be.
 */
import type { MapDocument, MapPoint } from '../../../components/map/types';
import { initialsOf } from '../../../utils/initials';
import { peerColor } from './peer-color';
import { peopleOf, type Person } from './people';
import { usePresenceRoster, usePresenceSession } from './presence-context';
import './presence.css';

export interface PresenceAvatarsProps {
  /** With these, another person's avatar takes the map to them: `centreOn` brings a point of the floor shown to the map's middle (through the map's view, whichever draws the floor). */
  centreOn?: (at: MapPoint) => void;
  document?: MapDocument;
  onLayerChange?: (layerId: string) => void;
}

/** Avatars shown before "+N" (the bar is narrow on a phone). */
const MAX_SHOWN = 3;

function describe(person: Person): string {
  const tabs = person.tabs > 1 ? ` (${person.tabs} tabs)` : '';
  return person.you ? `You, ${person.name}${tabs}` : `${person.name}${tabs}`;
}

/** Where a person is on the plan now: the pointer of one of their tabs, or else their selected location's place. */
function whereIs(uid: string, peers: ReturnType<typeof usePresenceRoster>['peers'], document: MapDocument): { layer: string; at: MapPoint } | null {
  const theirs = peers.filter((peer) => peer.uid === uid);
  const pointing = theirs.find((peer) => peer.state.cursor);
  if (pointing?.state.cursor) return { layer: pointing.state.cursor.layer, at: pointing.state.cursor };
  for (const peer of theirs) {
    const location = document.locations.find((candidate) => candidate.id === peer.state.selection);
    if (location?.position) return { layer: location.layer, at: location.position };
  }
  return null;
}

export function PresenceAvatars({ centreOn, document, onLayerChange }: PresenceAvatarsProps = {}) {
  const { self, peers } = usePresenceRoster();
  const session = usePresenceSession();
  if (!self || peers.length === 0) return null;
  const people = peopleOf(self, peers);
  const others = people.filter((person) => !person.you);
  // Keep "you" visible: the rest of the room folds into "+N" before it does.
  const shown = people.length > MAX_SHOWN ? [...others.slice(0, MAX_SHOWN - 1), people[people.length - 1]!] : people;
  const hidden = people.filter((person) => !shown.includes(person));
  return (
    <ul className="pr-avatars" aria-label={`In this map now: ${people.length} ${people.length === 1 ? 'person' : 'people'}`}>
      {shown.map((person) => {
        const canGo = !person.you && centreOn && document && onLayerChange && session;
        const go = () => {
          if (!canGo) return;
          // The newest positions (the roster leaves pointer moves out).
          const target = whereIs(person.uid, session.getSnapshot().peers, document);
          if (!target) return;
          onLayerChange(target.layer);
          // After the floor has switched (which resets the view): centre on them.
          requestAnimationFrame(() => requestAnimationFrame(() => centreOn(target.at)));
        };
        return (
          <li key={person.uid} className="pr-avatar" data-you={person.you ? 'true' : undefined} style={{ background: peerColor(person.uid) }} title={describe(person)}>
            {canGo ? (
              // Named by hidden text, not aria-label: a label that leaves out the initials shown
              // is one a speech-input user cannot say (axe: label-content-name-mismatch).
              <button type="button" className="pr-avatar__go" onClick={go}>
                <span aria-hidden="true">{initialsOf(person.name)}</span>
                <span className="pr-visually-hidden">Go to {describe(person)}</span>
              </button>
            ) : (
              <>
                <span aria-hidden="true">{initialsOf(person.name)}</span>
                <span className="pr-visually-hidden">{describe(person)}</span>
              </>
            )}
          </li>
        );
      })}
      {hidden.length > 0 ? (
        <li className="pr-avatar pr-avatar--more" title={hidden.map(describe).join(', ')}>
          <span aria-hidden="true">+{hidden.length}</span>
          <span className="pr-visually-hidden">and {hidden.map(describe).join(', ')}</span>
        </li>
      ) : null}
    </ul>
  );
}
