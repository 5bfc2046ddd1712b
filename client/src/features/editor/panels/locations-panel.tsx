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
 */
import { useDeferredValue, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { Group, Location } from '../../../../../events/map-document';
import { fold, matchesFolded, searchTextOf } from '../../../utils/location-search';
import { LocationForm } from './location-form';
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

interface LocationListProps extends Pick<EditorPanelProps, 'document'> {
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

function LocationList({ document, currentLayerId, query, onQuery, scope, onScope, focusTarget, onFocused, onOpen, onStartAdding }: LocationListProps) {
  const ids = useId();
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [limit, setLimit] = useState(LIST_LIMIT);
  const deferredQuery = useDeferredValue(query);
  const multiFloor = document.layers.length > 1;
  const effectiveScope: Scope = multiFloor ? scope : 'all';

  const groups = useMemo(() => new Map<string, Group>(document.groups.map((group) => [group.id, group])), [document.groups]);
  const layerNames = useMemo(() => new Map(document.layers.map((layer) => [layer.id, layer.name])), [document.layers]);
  const sorted = useSortedByTitle(document.locations);

  useEffect(() => setLimit(LIST_LIMIT), [deferredQuery, effectiveScope, currentLayerId]);

  const { shown, total, elsewhere } = useMemo(() => {
    const folded = fold(deferredQuery.trim());
    const shown: Location[] = [];
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
      if (shown.length < limit) shown.push(location);
    }
    return { shown, total, elsewhere };
  }, [sorted, deferredQuery, effectiveScope, currentLayerId, groups, limit]);

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

  const moveFocus = (event: KeyboardEvent<HTMLElement>) => {
    const buttons = [...(listRef.current?.querySelectorAll<HTMLButtonElement>('button[data-location-id]') ?? [])];
    if (buttons.length === 0) return;
    const index = buttons.indexOf(window.document.activeElement as HTMLButtonElement);
    const next =
      event.key === 'ArrowDown' ? Math.min(index + 1, buttons.length - 1)
      : event.key === 'ArrowUp' ? index - 1
      : event.key === 'Home' && index >= 0 ? 0
      : event.key === 'End' && index >= 0 ? buttons.length - 1
      : null;
    if (next === null) return;
    event.preventDefault();
    if (next < 0) searchRef.current?.focus();
    else buttons[next]?.focus();
  };

  return (
    <div className="ep-loc">
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
        <p className="ep-loc-count" role="status" aria-live="polite">
          {count}
        </p>
      </div>

      {shown.length > 0 ? (
        <ul ref={listRef} className="ep-loc-list" aria-label="Locations" onKeyDown={moveFocus}>
          {shown.map((location) => {
            const color = location.color ?? location.groups.map((id) => groups.get(id)?.color).find(Boolean) ?? null;
            const notPlaced = location.position === null && location.element === null;
            return (
              <li key={location.id}>
                <button type="button" className="ep-loc-item" data-location-id={location.id} onClick={() => onOpen(location.id)}>
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
    </div>
  );
}
