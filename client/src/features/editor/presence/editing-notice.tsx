/**
 * "Ada is editing this location": said in a location's form when someone else has the same
 * location's form open (or this person, in another tab), so two people do not type over each
 * other unawares. Their edits still merge (the last writer per field wins); this only tells.
 */
import { peerColor } from './peer-color';
import { namesList } from './people';
import { usePresenceRoster } from './presence-context';
import './presence.css';

export function EditingNotice({ locationId }: { locationId: string }) {
  const { self, peers } = usePresenceRoster();
  const editing = peers.filter((peer) => peer.state.editing === locationId);
  if (editing.length === 0) return null;
  const others = [...new Map(editing.filter((peer) => peer.uid !== self?.uid).map((peer) => [peer.uid, peer])).values()];
  const mine = editing.some((peer) => peer.uid === self?.uid);
  const text =
    others.length === 0
      ? 'You are editing this location in another tab'
      : `${namesList(others.map((peer) => peer.name))} ${others.length === 1 ? 'is' : 'are'} editing this location${mine ? ' (and you, in another tab)' : ''}`;
  const colors = (others.length > 0 ? others : editing.slice(0, 1)).map((peer) => peerColor(peer.uid));
  return (
    <p className="pr-editing" role="status">
      <span className="pr-editing__dots" aria-hidden="true">
        {colors.slice(0, 3).map((color, index) => (
          <span key={index} className="pr-editing__dot" style={{ background: color }} />
        ))}
      </span>
      {text}
    </p>
  );
}
