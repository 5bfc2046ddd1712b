/**
 * The locations panel inside a small stand-in for the editor: edits given to `onEdit` are
 * recorded (with the document they were given against) and applied, as the editor applies
 * them optimistically; a collaborator's edit can be applied from outside.
 */
import { act, render } from '@testing-library/react';
import { useState } from 'react';
import { expect, vi } from 'vitest';
import { emptyMapDocument, type MapDocument } from '../../../events/map-document';
import { applyEdit, checkEdit, MapEdit } from '../../../events/map-edits';
import type { EditOptions } from '../../../client/src/features/editor/panels/panel-props';
import { LocationsPanel } from '../../../client/src/features/editor/panels/locations-panel';

type LocationInput = Partial<MapDocument['locations'][number]> & { id: string; title: string };

export function location(input: LocationInput): MapDocument['locations'][number] {
  return {
    about: '',
    description: '',
    image: null,
    thumbnail: null,
    link: null,
    phone: '',
    hours: '',
    layer: 'ground',
    position: { x: 100, y: 100 },
    element: null,
    zoom: null,
    marker: 'pin',
    color: null,
    label: '',
    groups: [],
    hidden: false,
    ...input,
  };
}

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

export interface EditCall {
  edits: MapEdit[];
  options: EditOptions | undefined;
  /** The document the edits were given against. */
  before: MapDocument;
}

export function renderPanel({ document = mallDocument(), selectedId = null, currentLayerId = 'ground' }: { document?: MapDocument; selectedId?: string | null; currentLayerId?: string } = {}) {
  const calls: EditCall[] = [];
  const onSelect = vi.fn<(id: string | null) => void>();
  const onStartAdding = vi.fn<() => void>();
  let current = document;
  let setDocument: (document: MapDocument) => void = () => {};

  function Harness() {
    const [doc, setDoc] = useState(current);
    const [selected, setSelected] = useState<string | null>(selectedId);
    setDocument = setDoc;
    return (
      <LocationsPanel
        document={doc}
        currentLayerId={currentLayerId}
        selectedId={selected}
        onSelect={(id) => {
          onSelect(id);
          setSelected(id);
        }}
        onStartAdding={onStartAdding}
        onEdit={(edits, options) => {
          calls.push({ edits, options, before: current });
          // The editor applies what checks; an edit that does not check fails the test below.
          for (const edit of edits) if (checkEdit(current, edit) === null) current = applyEdit(current, edit);
          setDoc(current);
        }}
      />
    );
  }

  const view = render(<Harness />);
  return {
    ...view,
    calls,
    onSelect,
    onStartAdding,
    /** The document as the editor has it now. */
    document: () => current,
    /** The edits given, one list per call. */
    edits: () => calls.map((call) => call.edits),
    /** A collaborator's edit, arriving from the server. */
    collaborator(edit: MapEdit) {
      expect(checkEdit(current, edit)).toBeNull();
      current = applyEdit(current, edit);
      act(() => setDocument(current));
    },
  };
}

/** Every edit given is valid: it parses as a MapEdit and checks against its document. */
export function expectValidEdits(calls: readonly EditCall[]): void {
  for (const call of calls) {
    let document = call.before;
    for (const edit of call.edits) {
      const parsed = MapEdit.safeParse(edit);
      expect(parsed.success, JSON.stringify(edit)).toBe(true);
      expect(checkEdit(document, edit), JSON.stringify(edit)).toBeNull();
      document = applyEdit(document, edit);
    }
  }
}

/** A one-field LocationUpdated, as the form gives it. */
export function updated(id: string, changes: Record<string, unknown>): MapEdit {
  return { type: 'LocationUpdated', id, changes } as MapEdit;
}
