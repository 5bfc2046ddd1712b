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
import { useState } from 'react';
import { LocationForm } from './location-form';
import { LocationList, type FocusTarget, type Scope } from './location-list';
import { Icon } from './location-list-parts';
import { NO_SELECTION, type Selection } from './location-selection';
import type { EditorPanelProps } from './panel-props';
import './locations.css';

export { LIST_LIMIT } from './location-list';

export interface LocationsPanelProps extends EditorPanelProps {
  /** The floor the map shows. */
  currentLayerId: string;
  selectedId: string | null;
  onSelect(id: string | null): void;
  /** Arms the map's "click to place" tool. */
  onStartAdding(): void;
  /** Arms a click on a path point that becomes the location's entrance. */
  onPickEntrance?: ((locationId: string) => void) | undefined;
  /** The map's id (a store's address is looked up through its geocoder). */
  mapId?: string;
}

export function LocationsPanel({ document, onEdit, currentLayerId, selectedId, onSelect, onStartAdding, onPickEntrance, mapId }: LocationsPanelProps) {
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
          {...(mapId ? { mapId } : {})}
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
