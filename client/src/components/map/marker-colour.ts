import type { Location } from './types';

/** A location's marker colour: its own, else its first group's, else the accent. */
export function colorOf(location: Location, groupColors: ReadonlyMap<string, string>, accent: string): string {
  if (location.color) return location.color;
  for (const group of location.groups) {
    const color = groupColors.get(group);
    if (color) return color;
  }
  return accent;
}
