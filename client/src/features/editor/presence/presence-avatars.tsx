/**
 * Who is in the map now, in the editor's top bar: a round avatar per person (initials on their
 * colour), the first few and "+N" for the rest. Shown only when someone else is there (another
 * person, or this person's other tab): alone, the bar stays as it was. This tab's person comes
 * last, marked as "you"; a person's several tabs are one avatar ("2 tabs").
 */
import { initialsOf } from '../../../utils/initials';
import { peerColor } from './peer-color';
import { peopleOf, type Person } from './people';
import { usePresenceRoster } from './presence-context';
import './presence.css';

/** Avatars shown before "+N" (the bar is narrow on a phone). */
const MAX_SHOWN = 3;

function describe(person: Person): string {
  const tabs = person.tabs > 1 ? ` (${person.tabs} tabs)` : '';
  return person.you ? `You, ${person.name}${tabs}` : `${person.name}${tabs}`;
}

export function PresenceAvatars() {
  const { self, peers } = usePresenceRoster();
  if (!self || peers.length === 0) return null;
  const people = peopleOf(self, peers);
  const others = people.filter((person) => !person.you);
  // Keep "you" visible: the rest of the room folds into "+N" before it does.
  const shown = people.length > MAX_SHOWN ? [...others.slice(0, MAX_SHOWN - 1), people[people.length - 1]!] : people;
  const hidden = people.filter((person) => !shown.includes(person));
  return (
    <ul className="pr-avatars" aria-label={`In this map now: ${people.length} ${people.length === 1 ? 'person' : 'people'}`}>
      {shown.map((person) => (
        <li key={person.uid} className="pr-avatar" data-you={person.you ? 'true' : undefined} style={{ background: peerColor(person.uid) }} title={describe(person)}>
          <span aria-hidden="true">{initialsOf(person.name)}</span>
          <span className="pr-visually-hidden">{describe(person)}</span>
        </li>
      ))}
      {hidden.length > 0 ? (
        <li className="pr-avatar pr-avatar--more" title={hidden.map(describe).join(', ')}>
          <span aria-hidden="true">+{hidden.length}</span>
          <span className="pr-visually-hidden">and {hidden.map(describe).join(', ')}</span>
        </li>
      ) : null}
    </ul>
  );
}
