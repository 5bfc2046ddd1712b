/**
 * The editor's locations panel. With nothing selected: the list of locations, searchable
 * (accents and case do not matter: "cafe" finds "Café"; title, short text, label and group
 * names), on this floor or on every floor, and "Add location" (which arms the map's placing
 * tool). With a location selected: a way back to the list and the location's form.
 *
 * Big maps have thousands of locations: the list shows the first {@link LIST_LIMIT} matches
 * (more on request) and says how many there are, the search text of each location is folded
 * once and kept while the location is unchanged, and the list follows the search box a beat
 * behind the typing (a deferred value) so typing never waits for it.
 *
 * Many locations at once: a box per row (shift-click for a range, Shift+Space and Shift+arrows
 * from the keyboard; Ctrl/⌘-click and shift-click on a row select too), "Select all" for
 * everything the search and floor filter match, and the bulk bar (locations-bulk-bar.tsx) while
 * any are selected. Esc clears the selection. The selection outlives a visit to a location's form
 * and is announced to screen readers as it changes.
 */
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Group, Location } from '../../../../../events/map-document';
import { fold, matchesFolded, searchTextOf } from '../../../utils/location-search';
import { selectedLocations } from './location-bulk-edits';
import { LocationForm } from './location-form';
import { extended, NO_SELECTION, ranged, toggled, withAll, type Selection } from './location-selection';
import { LocationsBulkBar } from './locations-bulk-bar';
import type { EditorPanelProps } from './panel-props';
import './locations.css';

export interface LocationsPanelProps extends EditorPanelProps {
  /** The floor the map shows. */
  currentLayerId: string;
  selectedId: string | null;
  onSelect(id: string | null): void;
  /** Arms the map's "click to place" tool. */
  onStartAdding(): void;
  /** Arms a click on a path point that becomes the location's entrance. */
  onPickEntrance?: ((locationId: string) => void) | undefined;
}

/** A 16px stroke icon, decorative (its button carries the name). */
function Icon({ path }: { path: string }) {
  return (
    <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={path} />
    </svg>
  );
}

/** How many matches the list shows at first (and adds on "Show more"). */
export const LIST_LIMIT = 200;

type Scope = 'floor' | 'all';
type FocusTarget = { kind: 'item'; id: string } | { kind: 'search' } | null;

export function LocationsPanel({ document, onEdit, currentLayerId, selectedId, onSelect, onStartAdding, onPickEntrance }: LocationsPanelProps) {
  const [query, setQuery] = useState('');
  const [scope, setScope] = useState<Scope>('floor');
  const [openedFromList, setOpenedFromList] = useState<string | null>(null);
  const [focusTarget, setFocusTarget] = useState<FocusTarget>(null);
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  const selected = selectedId ? (document.locations.find((location) => location.id === selectedId) ?? null) : null;

  if (selected) {
    return (
      <div className="ep-loc">
        <div className="ep-loc-bar">
          <button
            type="button"
            className="ep-loc-back"
            onClick={() => {
              setFocusTarget({ kind: 'item', id: selected.id });
              onSelect(null);
            }}
          >
            <Icon path="M15 18l-6-6 6-6" />
            All locations
          </button>
        </div>
        <LocationForm
          key={selected.id}
          document={document}
          onEdit={onEdit}
          location={selected}
          {...(onPickEntrance ? { onPickEntrance: () => onPickEntrance(selected.id) } : {})}
          focusOnOpen={openedFromList === selected.id}
          onDeleted={() => {
            setFocusTarget({ kind: 'search' });
            onSelect(null);
          }}
        />
      </div>
    );
  }

  return (
    <LocationList
      document={document}
      onEdit={onEdit}
      selection={selection}
      onSelection={setSelection}
      currentLayerId={currentLayerId}
      query={query}
      onQuery={setQuery}
      scope={scope}
      onScope={setScope}
      focusTarget={focusTarget}
      onFocused={() => setFocusTarget(null)}
      onOpen={(id) => {
        setOpenedFromList(id);
        onSelect(id);
      }}
      onStartAdding={onStartAdding}
    />
  );
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * The locations by title ("Shop 2" before "Shop 10"). Sorting 20,000 takes tens of
 * milliseconds, so the order is kept while no title changes (most edits change other fields).
 */
function useSortedByTitle(locations: readonly Location[]): Location[] {
  const cache = useRef<{ locations: readonly Location[]; order: number[] } | null>(null);
  return useMemo(() => {
    const previous = cache.current;
    const same = previous !== null && previous.locations.length === locations.length && locations.every((location, index) => location.title === previous.locations[index]!.title);
    const order = same ? previous.order : locations.map((_, index) => index).sort((a, b) => collator.compare(locations[a]!.title, locations[b]!.title));
    cache.current = { locations, order };
    return order.map((index) => locations[index]!);
  }, [locations]);
}

const plural = (count: number, one: string, many: string) => `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

interface LocationListProps extends EditorPanelProps {
  selection: Selection;
  onSelection(selection: Selection): void;
  currentLayerId: string;
  query: string;
  onQuery(query: string): void;
  scope: Scope;
  onScope(scope: Scope): void;
  focusTarget: FocusTarget;
  onFocused(): void;
  onOpen(id: string): void;
  onStartAdding(): void;
}

/** How to take a bulk action back: the keys, or on a touch screen (no keyboard) the bar's button. */
function undoHint(): string {
  if (typeof window.matchMedia === 'function' && window.matchMedia('(pointer: coarse)').matches) return 'Tap Undo at the top to take it back.';
  return `Undo with ${navigator.platform.includes('Mac') ? '⌘' : 'Ctrl'}+Z.`;
}

/** The header's box: ticked when every match is selected, half when some are. */
function SelectAll({ label, all, some, onChange }: { label: string; all: boolean; some: boolean; onChange(): void }) {
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

function LocationList({ document, onEdit, selection, onSelection, currentLayerId, query, onQuery, scope, onScope, focusTarget, onFocused, onOpen, onStartAdding }: LocationListProps) {
  const ids = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [limit, setLimit] = useState(LIST_LIMIT);
  const [notice, setNotice] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const deferredQuery = useDeferredValue(query);
  const multiFloor = document.layers.length > 1;
  const effectiveScope: Scope = multiFloor ? scope : 'all';

  const groups = useMemo(() => new Map<string, Group>(document.groups.map((group) => [group.id, group])), [document.groups]);
  const layerNames = useMemo(() => new Map(document.layers.map((layer) => [layer.id, layer.name])), [document.layers]);
  const sorted = useSortedByTitle(document.locations);

  useEffect(() => setLimit(LIST_LIMIT), [deferredQuery, effectiveScope, currentLayerId]);

  const { shown, total, elsewhere, matches } = useMemo(() => {
    const folded = fold(deferredQuery.trim());
    const shown: Location[] = [];
    // Every match's id, past the ones shown too: what "Select all" takes.
    const matches: string[] = [];
    let total = 0;
    let elsewhere = 0;
    for (const location of sorted) {
      if (folded) {
        if (!matchesFolded(searchTextOf(location, groups), folded)) continue;
      }
      if (effectiveScope === 'floor' && location.layer !== currentLayerId) {
        elsewhere += 1;
        continue;
      }
      total += 1;
      matches.push(location.id);
      if (shown.length < limit) shown.push(location);
    }
    return { shown, total, elsewhere, matches };
  }, [sorted, deferredQuery, effectiveScope, currentLayerId, groups, limit]);

  const order = useMemo(() => shown.map((location) => location.id), [shown]);
  const selected = useMemo(() => selectedLocations(sorted, selection.ids), [sorted, selection.ids]);
  const selectedMatches = useMemo(() => {
    let count = 0;
    for (const id of matches) if (selection.ids.has(id)) count += 1;
    return count;
  }, [matches, selection.ids]);
  const allMatched = matches.length > 0 && selectedMatches === matches.length;

  /** A new selection, and its count said to screen readers (the bar shows it). */
  const change = (next: Selection) => {
    // Only ids of locations still on the map are kept (a collaborator may have removed some).
    const kept = selectedLocations(sorted, next.ids);
    if (selected.length === 0 && kept.length > 0) setNotice(null);
    onSelection({ ids: new Set(kept.map((location) => location.id)), anchor: next.anchor });
    setAnnouncement(kept.length === 0 ? 'Selection cleared' : `${plural(kept.length, 'location', 'locations')} selected`);
  };

  const clearSelection = () => {
    // The bar goes with the selection: the focus it had goes to the search box.
    const active = window.document.activeElement;
    if (active instanceof HTMLElement && active.closest('.ep-loc-bulk')) searchRef.current?.focus();
    change(NO_SELECTION);
  };

  const bulkDone = (message: string, deleted = false) => {
    setNotice(`${message} ${undoHint()}`);
    setAnnouncement(`${message} ${undoHint()}`);
    if (deleted) {
      onSelection(NO_SELECTION);
      searchRef.current?.focus();
    }
  };

  // Back from a location's form: the focus returns to it in the list (or to the search box).
  useEffect(() => {
    if (!focusTarget) return;
    const button =
      focusTarget.kind === 'item' ? [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-location-id]') ?? [])].find((item) => item.dataset.locationId === focusTarget.id) : undefined;
    (button ?? searchRef.current)?.focus();
    onFocused();
  }, [focusTarget, onFocused]);

  const searching = deferredQuery.trim() !== '';
  const floorName = layerNames.get(currentLayerId) ?? 'this floor';
  const noun = searching ? plural(total, 'match', 'matches') : plural(total, 'location', 'locations');
  const count = effectiveScope === 'floor' ? `${noun} on ${floorName}` : noun;

  /**
   * Arrows move between rows in the column the focus is in (the boxes, or the titles that open
   * a location), left and right between the two; Shift with an arrow selects as it goes.
   */
  const moveFocus = (event: KeyboardEvent<HTMLElement>) => {
    const active = window.document.activeElement;
    const inBoxes = active instanceof HTMLInputElement && active.dataset.selectId !== undefined;
    const items = [...(listRef.current?.querySelectorAll<HTMLElement>(inBoxes ? 'input[data-select-id]' : 'button[data-location-id]') ?? [])];
    if (items.length === 0) return;
    const index = items.indexOf(active as HTMLElement);
    if ((event.key === 'ArrowLeft' || event.key === 'ArrowRight') && index >= 0 && !event.shiftKey) {
      const row = items[index]!.closest('li');
      const other = row?.querySelector<HTMLElement>(event.key === 'ArrowLeft' ? 'input[data-select-id]' : 'button[data-location-id]');
      if (other && other !== active) {
        event.preventDefault();
        other.focus();
      }
      return;
    }
    const next =
      event.key === 'ArrowDown' ? Math.min(index + 1, items.length - 1)
      : event.key === 'ArrowUp' ? index - 1
      : event.key === 'Home' && index >= 0 ? 0
      : event.key === 'End' && index >= 0 ? items.length - 1
      : null;
    if (next === null) return;
    event.preventDefault();
    if (next < 0) {
      searchRef.current?.focus();
      return;
    }
    items[next]?.focus();
    if (event.shiftKey && index >= 0 && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
      change(extended(selection, order, order[index]!, order[next]!));
    }
  };

  /** A click on a row's box: alone it toggles; with Shift it sets the range from the last one clicked. */
  const check = (id: string, shift: boolean) => change(shift ? ranged(selection, order, id) : toggled(selection, id));

  return (
    <div
      className="ep-loc"
      onKeyDown={(event) => {
        // Esc clears the selection (the search box's own Esc, which empties it, comes first).
        if (event.key !== 'Escape' || selected.length === 0) return;
        event.stopPropagation();
        clearSelection();
      }}
    >
      <div className="visually-hidden" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
      <div className="ep-loc-tools">
        <div className="ep-loc-search">
          <label className="visually-hidden" htmlFor={`${ids}-search`}>
            Search locations
          </label>
          <svg className="ep-loc-search__icon" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" aria-hidden="true" focusable="false">
            <path d="M11 18a7 7 0 1 0 0-14 7 7 0 0 0 0 14zM20 20l-4-4" />
          </svg>
          <input
            ref={searchRef}
            id={`${ids}-search`}
            className="ep-loc-input ep-loc-search__input"
            type="search"
            placeholder="Search locations"
            autoComplete="off"
            spellCheck={false}
            value={query}
            onChange={(event) => onQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'ArrowDown') moveFocus(event);
              else if (event.key === 'Escape' && query) {
                event.stopPropagation();
                onQuery('');
              }
            }}
          />
        </div>
        <button type="button" className="ep-loc-button ep-loc-button--primary ep-loc-add" onClick={onStartAdding}>
          <Icon path="M12 5v14M5 12h14" />
          Add location
        </button>
      </div>

      <div className="ep-loc-summary">
        {multiFloor ? (
          <div className="ep-loc-segmented ep-loc-segmented--small" role="radiogroup" aria-label="Show locations on">
            <label className="ep-loc-segmented__option">
              <input type="radio" name={`${ids}-scope`} checked={scope === 'floor'} onChange={() => onScope('floor')} />
              <span>This floor</span>
            </label>
            <label className="ep-loc-segmented__option">
              <input type="radio" name={`${ids}-scope`} checked={scope === 'all'} onChange={() => onScope('all')} />
              <span>All floors</span>
            </label>
          </div>
        ) : null}
        <div className="ep-loc-head">
          {total > 0 ? (
            <SelectAll
              label={`Select all ${count}`}
              all={allMatched}
              some={selectedMatches > 0}
              onChange={() => change(withAll(selection, matches, !allMatched))}
            />
          ) : null}
          <p className="ep-loc-count" role="status" aria-live="polite">
            {count}
          </p>
        </div>
      </div>

      {notice ? (
        <div className="ep-loc-notice">
          <p>{notice}</p>
          <button type="button" className="ep-loc-notice__close" aria-label="Dismiss" onClick={() => setNotice(null)}>
            <Icon path="M6 6l12 12M18 6L6 18" />
          </button>
        </div>
      ) : null}

      {shown.length > 0 ? (
        <ul ref={listRef} className="ep-loc-list" aria-label="Locations" onKeyDown={moveFocus}>
          {shown.map((location) => {
            const color = location.color ?? location.groups.map((id) => groups.get(id)?.color).find(Boolean) ?? null;
            const notPlaced = location.position === null && location.element === null;
            const isSelected = selection.ids.has(location.id);
            return (
              <li key={location.id} className="ep-loc-row" data-selected={isSelected ? 'true' : undefined}>
                <label
                  className="ep-loc-row__check"
                  // Shift-click would also select the text between the two clicks.
                  onMouseDown={(event) => event.shiftKey && event.preventDefault()}
                >
                  <input
                    type="checkbox"
                    checked={isSelected}
                    aria-label={`Select ${location.title}`}
                    data-select-id={location.id}
                    onChange={(event) => check(location.id, (event.nativeEvent as MouseEvent).shiftKey === true)}
                    onKeyDown={(event) => {
                      if (event.key !== ' ' || !event.shiftKey) return;
                      // Shift+Space: the range, and not the plain toggle the key would also make.
                      event.preventDefault();
                      check(location.id, true);
                    }}
                  />
                </label>
                <button
                  type="button"
                  className="ep-loc-item"
                  data-location-id={location.id}
                  onMouseDown={(event) => event.shiftKey && event.preventDefault()}
                  onClick={(event) => {
                    if (event.shiftKey) check(location.id, true);
                    else if (event.metaKey || event.ctrlKey) check(location.id, false);
                    else onOpen(location.id);
                  }}
                >
                  <span className="ep-loc-dot" data-empty={color ? undefined : 'true'} style={color ? { background: color } : undefined} aria-hidden="true" />
                  <span className="ep-loc-item__text">
                    <span className="ep-loc-item__title">{location.title}</span>
                    {multiFloor && effectiveScope === 'all' ? <span className="ep-loc-item__meta">{layerNames.get(location.layer) ?? location.layer}</span> : null}
                  </span>
                  {location.hidden ? <span className="ep-loc-badge">Hidden</span> : null}
                  {notPlaced ? <span className="ep-loc-badge ep-loc-badge--warn">Not placed</span> : null}
                </button>
              </li>
            );
          })}
        </ul>
      ) : (
        <div className="ep-loc-empty">
          {document.locations.length === 0 ? (
            <p>No locations yet. Choose “Add location”, then click the map where it is.</p>
          ) : searching ? (
            <p>{`Nothing matches “${deferredQuery.trim()}”${effectiveScope === 'floor' ? ` on ${floorName}` : ''}.`}</p>
          ) : (
            <p>{`No locations on ${floorName} yet.`}</p>
          )}
        </div>
      )}

      {effectiveScope === 'floor' && elsewhere > 0 ? (
        <button type="button" className="ep-loc-link-button" onClick={() => onScope('all')}>
          {`${plural(elsewhere, searching ? 'more match' : 'more location', searching ? 'more matches' : 'more locations')} on other floors: show all floors`}
        </button>
      ) : null}

      {total > shown.length ? (
        <div className="ep-loc-more">
          <p>{`Showing ${shown.length.toLocaleString('en')} of ${total.toLocaleString('en')}. Refine the search to find the others.`}</p>
          <button type="button" className="ep-loc-button" onClick={() => setLimit((current) => current + LIST_LIMIT)}>
            {`Show ${Math.min(LIST_LIMIT, total - shown.length)} more`}
          </button>
        </div>
      ) : null}

      {selected.length > 0 ? (
        <LocationsBulkBar
          document={document}
          onEdit={onEdit}
          selected={selected}
          outsideList={selected.length - selectedMatches}
          onClear={clearSelection}
          onDone={bulkDone}
        />
      ) : null}
    </div>
  );
}
