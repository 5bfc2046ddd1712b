/**
 * The locations panel inside a small stand-in for the editor: edits given to `onEdit` are
 * recorded (with the document they were given against) and applied, as the editor applies
 * them optimistically; a collaborator's edit can be applied from outside.
 */
import { useState } from 'react';
import { vi } from 'vitest';
import { emptyMapDocument, type MapDocument } from '../../../events/map-document';
import type { MapEdit } from '../../../events/map-edits';
import type { OnEdit } from '../../../client/src/features/editor/panels/panel-props';
import { LocationsPanel } from '../../../client/src/features/editor/panels/locations-panel';
import { renderPanel as renderAnyPanel } from './panel-harness';
import { location } from './locations';

export { location } from './locations';

/** A blank map with a second floor, three groups and a few locations (a small mall). */
export function mallDocument(): MapDocument {
  const blank = emptyMapDocument();
  return {
    ...blank,
    layers: [...blank.layers, { id: 'upper', name: 'Level 1', file: null }],
    groups: [
      { id: 'food', name: 'Food & drink', color: '#ea580c', legend: true },
      { id: 'shops', name: 'Shops', color: '#2563eb', legend: true },
      { id: 'services', name: 'Services', color: '#059669', legend: true },
    ],
    locations: [
      location({ id: 'cafe', title: 'Café Noir', about: 'Espresso and pastries', groups: ['food'], label: 'CN', position: { x: 200, y: 150 } }),
      location({ id: 'baker', title: 'Müller Bäckerei', about: 'Bread since 1921', groups: ['food'], position: { x: 400, y: 150 } }),
      location({ id: 'books', title: 'Page Turner Books', groups: ['shops'], position: null }),
      location({ id: 'atm', title: 'Cash machine', label: 'ATM', groups: ['services'], element: 'atm_1', position: null }),
      location({ id: 'store', title: 'Storeroom', hidden: true }),
      location({ id: 'sushi', title: 'Sakura Sushi', layer: 'upper', groups: ['food'] }),
    ],
  };
}

export type { PanelCall as EditCall } from './panel-harness';
export { expectValidEdits } from './panel-harness';

/** The locations panel, holding its own selection as the editor does. */
function SelectingLocationsPanel(props: {
  document: MapDocument;
  onEdit: OnEdit;
  selectedId: string | null;
  currentLayerId: string;
  onSelect: (id: string | null) => void;
  onStartAdding: () => void;
  mapId?: string | undefined;
}) {
  const [selected, setSelected] = useState<string | null>(props.selectedId);
  return (
    <LocationsPanel
      document={props.document}
      currentLayerId={props.currentLayerId}
      selectedId={selected}
      onSelect={(id) => {
        props.onSelect(id);
        setSelected(id);
      }}
      onStartAdding={props.onStartAdding}
      onEdit={props.onEdit}
      {...(props.mapId ? { mapId: props.mapId } : {})}
    />
  );
}

/** The locations panel in the panels' stand-in editor (support/panel-harness.tsx). */
export function renderPanel({
  document = mallDocument(),
  selectedId = null,
  currentLayerId = 'ground',
  mapId,
}: { document?: MapDocument; selectedId?: string | null; currentLayerId?: string; mapId?: string } = {}) {
  const onSelect = vi.fn<(id: string | null) => void>();
  const onStartAdding = vi.fn<() => void>();
  const view = renderAnyPanel(
    (doc, onEdit) => (
      <SelectingLocationsPanel document={doc} onEdit={onEdit} selectedId={selectedId} currentLayerId={currentLayerId} onSelect={onSelect} onStartAdding={onStartAdding} mapId={mapId} />
    ),
    document,
  );
  return { ...view, onSelect, onStartAdding };
}

/** A one-field LocationUpdated, as the form gives it. */
export function updated(id: string, changes: Record<string, unknown>): MapEdit {
  return { type: 'LocationUpdated', id, changes } as MapEdit;
}
