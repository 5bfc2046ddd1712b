/**
 * An editor panel (floors, groups, settings) inside a small stand-in for the editor: the edits
 * given to `onEdit` are recorded with their options and the document they were given against,
 * then applied at once, as the editor applies them; a collaborator's edit can arrive from
 * outside. The session context is the local mode's (the floors panel uploads through it).
 */
import { act, render } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { expect } from 'vitest';
import { emptyMapDocument, type MapDocument } from '../../../events/map-document';
import { applyEdit, checkEdit, MapEdit } from '../../../events/map-edits';
import type { EditOptions, OnEdit } from '../../../client/src/features/editor/panels/panel-props';
import { SessionContext, type Session } from '../../../client/src/lib/session';

export interface PanelCall {
  edits: MapEdit[];
  options: EditOptions | undefined;
  /** The document the edits were given against. */
  before: MapDocument;
}

/** A blank map (one floor, "Ground floor") grown by `change`. */
export function documentWith(change: (document: MapDocument) => Partial<MapDocument> = () => ({})): MapDocument {
  const blank = emptyMapDocument();
  return { ...blank, ...change(blank) };
}

export function renderPanel(panel: (document: MapDocument, onEdit: OnEdit) => ReactNode, initial: MapDocument) {
  const calls: PanelCall[] = [];
  let current = initial;
  let setDocument: (document: MapDocument) => void = () => {};

  const onEdit: OnEdit = (edits, options) => {
    calls.push({ edits, options, before: current });
    // The editor applies what checks; an edit that does not check fails `expectValidEdits`.
    for (const edit of edits) if (checkEdit(current, edit) === null) current = applyEdit(current, edit);
    setDocument(current);
  };

  function Harness() {
    const [document, setDoc] = useState(current);
    setDocument = setDoc;
    return <SessionContext value={{ mode: 'local' } as Session}>{panel(document, onEdit)}</SessionContext>;
  }

  const view = render(<Harness />);
  return {
    ...view,
    calls,
    /** The document as the editor has it now. */
    document: () => current,
    /** The edits given, one list per call. */
    edits: () => calls.map((call) => call.edits),
    /** A collaborator's edit (or undo), arriving from outside. */
    collaborator(edit: MapEdit) {
      expect(checkEdit(current, edit)).toBeNull();
      current = applyEdit(current, edit);
      act(() => setDocument(current));
    },
  };
}

/** Every edit given parses as a MapEdit and checks against the document it was given on. */
export function expectValidEdits(calls: readonly PanelCall[]): void {
  for (const call of calls) {
    let document = call.before;
    for (const edit of call.edits) {
      expect(MapEdit.safeParse(edit).success, JSON.stringify(edit)).toBe(true);
      expect(checkEdit(document, edit), JSON.stringify(edit)).toBeNull();
      document = applyEdit(document, edit);
    }
  }
}
