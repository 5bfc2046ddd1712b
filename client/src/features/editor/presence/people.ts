/**
 * The people behind the peers: one person may be in a map from several tabs (one peer each,
 * the same uid). The top bar shows a person once; pointers and outlines stay per tab, so two
 * tabs of one person show as two pointers, the other tab's labelled as such.
 */
import type { PresencePeer } from '../../../../../events/presence';
import type { PresenceSelf } from './presence-session';

export interface Person {
  uid: string;
  name: string;
  /** How many tabs of theirs are in the map. */
  tabs: number;
  /** This tab's own person (their other tabs count in `tabs`). */
  you: boolean;
}

/** Everyone in the map once, in the order they came, this tab's person last. */
export function peopleOf(self: PresenceSelf | null, peers: readonly PresencePeer[]): Person[] {
  const people = new Map<string, Person>();
  for (const peer of peers) {
    const known = people.get(peer.uid);
    if (known) known.tabs += 1;
    else people.set(peer.uid, { uid: peer.uid, name: peer.name, tabs: 1, you: peer.uid === self?.uid });
  }
  const others = [...people.values()].filter((person) => !person.you);
  if (!self) return others;
  const mine = people.get(self.uid);
  return [...others, { uid: self.uid, name: self.name, tabs: (mine?.tabs ?? 0) + 1, you: true }];
}

/** How a peer is named on the map: their name, or "You (other tab)" for this person's other tab. */
export function peerLabel(self: PresenceSelf | null, peer: PresencePeer): string {
  return self && peer.uid === self.uid ? 'You (other tab)' : peer.name || 'Someone';
}

/** "Ada", "Ada and Ben", "Ada, Ben and Cy". */
export function namesList(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
