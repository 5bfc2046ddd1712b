/**
 * The pieces of the locations list: its icons, the header's "select all" box, one row (a box to
 * select it, the title that opens it), the list's order by title and its counts in words.
 */
import { useEffect, useMemo, useRef } from 'react';
import type { Location } from '../../../../../events/map-document';

/** A 16px stroke icon, decorative (its button carries the name). */
export function Icon({ path }: { path: string }) {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={path} />
    </svg>
  );
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * The locations by title ("Shop 2" before "Shop 10"). Sorting 20,000 takes tens of
 * milliseconds, so the order is kept while no title changes (most edits change other fields).
 */
export function useSortedByTitle(locations: readonly Location[]): Location[] {
  const cache = useRef<{ locations: readonly Location[]; order: number[] } | null>(null);
  return useMemo(() => {
    const previous = cache.current;
    const same = previous !== null && previous.locations.length === locations.length && locations.every((location, index) => location.title === previous.locations[index]!.title);
    const order = same ? previous.order : locations.map((_, index) => index).sort((a, b) => collator.compare(locations[a]!.title, locations[b]!.title));
    cache.current = { locations, order };
    return order.map((index) => locations[index]!);
  }, [locations]);
}

export const plural = (count: number, one: string, many: string) => `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

/** How to take a bulk action back: the keys, or on a touch screen (no keyboard) the bar's button. */
export function undoHint(): string {
  if (typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches) return 'Tap Undo at the top to take it back.';
  return `Undo with ${navigator.platform.includes('Mac') ? '⌘' : 'Ctrl'}+Z.`;
}

/** The header's box: ticked when every match is selected, half when some are. */
export function SelectAll({ label, all, some, onChange }: { label: string; all: boolean; some: boolean; onChange(): void }) {
  const ref = useRef<HTMLInputElement>(null);
  const mixed = some && !all;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <label className="ep-loc-row__check ep-loc-head__check" title={label}>
      <input ref={ref} type="checkbox" checked={all} aria-checked={mixed ? 'mixed' : all} aria-label={label} onChange={onChange} />
    </label>
  );
}

export interface LocationRowProps {
  location: Location;
  /** Its marker's colour (its own, or its first group's), if any. */
  color: string | null;
  /** Its floor's name, when the list shows every floor of a map with several. */
  floorName: string | null;
  selected: boolean;
  /** A click on its box (or Shift/Ctrl on its title): alone it toggles, `range` the run from the last one. */
  onCheck(id: string, range: boolean): void;
  onOpen(id: string): void;
}

/** One location in the list: its box, and its title (with its floor and badges) that opens its form. */
export function LocationRow({ location, color, floorName, selected, onCheck, onOpen }: LocationRowProps) {
  const notPlaced = location.position === null && location.element === null;
  return (
    <li className="ep-loc-row" data-selected={selected ? 'true' : undefined}>
      <label
        className="ep-loc-row__check"
        // Shift-click would also select the text between the two clicks.
        onMouseDown={(event) => event.shiftKey && event.preventDefault()}
      >
        <input
          type="checkbox"
          checked={selected}
          aria-label={`Select ${location.title}`}
          data-select-id={location.id}
          onChange={(event) => onCheck(location.id, (event.nativeEvent as MouseEvent).shiftKey === true)}
          onKeyDown={(event) => {
            if (event.key !== ' ' || !event.shiftKey) return;
            // Shift+Space: the range, and not the plain toggle the key would also make.
            event.preventDefault();
            onCheck(location.id, true);
          }}
        />
      </label>
      <button
        type="button"
        className="ep-loc-item"
        data-location-id={location.id}
        onMouseDown={(event) => event.shiftKey && event.preventDefault()}
        onClick={(event) => {
          if (event.shiftKey) onCheck(location.id, true);
          else if (event.metaKey || event.ctrlKey) onCheck(location.id, false);
          else onOpen(location.id);
        }}
      >
        <span className="ep-loc-dot" data-empty={color ? undefined : 'true'} style={color ? { background: color } : undefined} aria-hidden="true" />
        <span className="ep-loc-item__text">
          <span className="ep-loc-item__title">{location.title}</span>
          {floorName !== null ? <span className="ep-loc-item__meta">{floorName}</span> : null}
        </span>
        {location.hidden ? <span className="ep-loc-badge">Hidden</span> : null}
        {notPlaced ? <span className="ep-loc-badge ep-loc-badge--warn">Not placed</span> : null}
      </button>
    </li>
  );
}
