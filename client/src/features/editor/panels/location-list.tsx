/**
 * The locations panel's list: search, this floor or all floors, the count, the rows (selectable
 * one by one, by range or all at once, moved through by the arrow keys), "Show more" on big maps,
 * and the bulk bar while any are selected.
 */
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Group, Location } from '../../../../../events/map-document';
import { fold, matchesFolded, searchTextOf } from '../../../utils/location-search';
import { selectedLocations } from './location-bulk-edits';
import { Icon, LocationRow, plural, SelectAll, undoHint, useSortedByTitle } from './location-list-parts';
import { extended, NO_SELECTION, ranged, toggled, withAll, type Selection } from './location-selection';
import { LocationsBulkBar } from './locations-bulk-bar';
import type { EditorPanelProps } from './panel-props';

/** How many matches the list shows at first (and adds on "Show more"). */
export const LIST_LIMIT = 200;

export type Scope = 'floor' | 'all';
export type FocusTarget = { kind: 'item'; id: string } | { kind: 'search' } | null;

export interface LocationListProps extends EditorPanelProps {
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

export function LocationList({ document, onEdit, selection, onSelection, currentLayerId, query, onQuery, scope, onScope, focusTarget, onFocused, onOpen, onStartAdding }: LocationListProps) {
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
          {shown.map((location) => (
            <LocationRow
              key={location.id}
              location={location}
              color={location.color ?? location.groups.map((id) => groups.get(id)?.color).find(Boolean) ?? null}
              floorName={multiFloor && effectiveScope === 'all' ? (layerNames.get(location.layer) ?? location.layer) : null}
              selected={selection.ids.has(location.id)}
              onCheck={check}
              onOpen={onOpen}
            />
          ))}
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
