/**
 * The editor's panels (the rail's tabs) and who sees which: publishing and the embeds are the
 * owner's, visitors' numbers are for those who shape the map, comments only where the app gives them.
 */
import type { EditorIconName } from '../editor-icons';
import type { EditorAccess } from '../use-editor-map';

export type Tab = 'locations' | 'paths' | 'floors' | 'groups' | 'style' | 'publish' | 'share' | 'data' | 'history' | 'comments' | 'insights';

export const TABS: ReadonlyArray<{ id: Tab; label: string; icon: EditorIconName }> = [
  { id: 'locations', label: 'Locations', icon: 'pin' },
  { id: 'paths', label: 'Paths', icon: 'path' },
  { id: 'floors', label: 'Floors', icon: 'layers' },
  { id: 'groups', label: 'Groups', icon: 'tag' },
  { id: 'style', label: 'Settings', icon: 'sliders' },
  { id: 'publish', label: 'Publish', icon: 'rocket' },
  // The published map's page and embed snippet; inviting people is the bar's Share button.
  { id: 'share', label: 'Embed', icon: 'share' },
  { id: 'data', label: 'Data', icon: 'data' },
  { id: 'history', label: 'History', icon: 'clock' },
  { id: 'comments', label: 'Comments', icon: 'comment' },
  { id: 'insights', label: 'Insights', icon: 'chart' },
];

/** Publishing, billing and the embeds are the owner's (and admins'); members see the rest. */
const ownerOnlyTabs: ReadonlySet<Tab> = new Set(['publish', 'share']);
/** Visitors' numbers are for those who shape the map: owners and editors (events/map-access.ts `edit`), not viewers nor explorers. */
const editorOnlyTabs: ReadonlySet<Tab> = new Set(['insights']);

/** The tabs this person sees, in the rail's order. */
export function visibleTabs(access: EditorAccess, withComments: boolean): ReadonlyArray<(typeof TABS)[number]> {
  const explore = access === 'explore';
  return TABS.filter(
    (candidate) =>
      (withComments || candidate.id !== 'comments') &&
      (access === 'owner' || explore || !ownerOnlyTabs.has(candidate.id)) &&
      (!editorOnlyTabs.has(candidate.id) || access === 'owner' || access === 'editor'),
  );
}

export const tabLabelOf = (tab: Tab): string => TABS.find((candidate) => candidate.id === tab)!.label;
