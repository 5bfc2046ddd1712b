/**
 * An import recorded by the server (POST /api/maps/{id}/import) is one undo step of the tab that
 * made it: its events come over the live hub (before or after the request's answer), and undo
 * sends what takes them back. Someone else's import, or one of another tab, is not this tab's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveMapEvent } from '../../events/live-messages';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { applyEdit, type MapEdit } from '../../events/map-edits';
import { EditorSession } from '../../client/src/features/editor/editor-session';

const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', about: 'Coffee', position: { x: 10, y: 20 } });
const at = '2026-11-24T21:00:00.000Z';

function event(revision: number, edit: MapEdit, uid = 'ada'): LiveMapEvent {
  const { type, ...fields } = edit;
  return { revision: String(revision), position: `${revision}:${revision}`, at, by: { uid, name: uid }, event: { type, data: { ...fields, mapId: 'm1', edited: at } } as LiveMapEvent['event'] };
}

const first: MapEdit = {
  type: 'ImportApplied',
  source: { format: 'csv', name: 'stores.csv', mapping: { title: 'Name' } },
  layers: [],
  groups: [{ id: 'books', name: 'Books', color: '#0ea5e9', legend: true }],
  locations: [Location.parse({ id: 'harbour-books', title: 'Harbour Books', layer: 'ground', groups: ['books'] })],
  updates: [{ id: 'cafe', changes: { about: 'Espresso bar' } }],
};
const second: MapEdit = {
  type: 'ImportApplied',
  source: { format: 'csv', name: 'stores.csv', mapping: { title: 'Name' } },
  layers: [],
  groups: [],
  locations: [Location.parse({ id: 'pier-cafe', title: 'Pier Café', layer: 'ground', groups: ['books'] })],
  updates: [],
};

function setup() {
  let server: MapDocument = { ...emptyMapDocument(), locations: [cafe] };
  let revision = 0n;
  const saved: MapEdit[][] = [];
  const session = new EditorSession({
    initial: { document: server, revision },
    me: 'ada',
    save: async (edits) => {
      saved.push(edits);
      for (const edit of edits) server = applyEdit(server, edit);
      revision += 1n;
      return { revision: String(revision) };
    },
  });
  /** The server records edits (an import) and pushes them. */
  const push = (...entries: Array<{ edit: MapEdit; uid?: string }>) => {
    const events = entries.map(({ edit, uid }) => {
      server = applyEdit(server, edit);
      revision += 1n;
      return event(Number(revision), edit, uid);
    });
    session.receive({ document: server, revision }, events);
  };
  return { session, saved, push, revision: () => revision, document: () => server };
}

describe('an import recorded by the server', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('is one undo step once its events are here, however they came first', async () => {
    const { session, saved, push, revision, document } = setup();
    session.serverStepStarted();
    // The hub's push comes before the request's answer.
    push({ edit: first }, { edit: second });
    expect(session.getSnapshot().canUndo).toBe(false);
    session.serverStepDone(revision());
    expect(session.getSnapshot().canUndo).toBe(true);

    session.undo();
    expect(session.document.locations).toEqual([cafe]);
    expect(session.document.groups).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toEqual([
      { type: 'LocationsRemoved', ids: ['pier-cafe'] },
      { type: 'LocationUpdated', id: 'cafe', changes: { about: 'Coffee' } },
      { type: 'LocationsRemoved', ids: ['harbour-books'] },
      { type: 'GroupRemoved', id: 'books' },
    ]);
    expect(document().locations).toEqual([cafe]);
    expect(session.getSnapshot().canRedo).toBe(true);
  });

  it('waits for events still on their way after the answer', () => {
    const { session, push } = setup();
    session.serverStepStarted();
    session.serverStepDone(2n);
    expect(session.getSnapshot().canUndo).toBe(false);
    push({ edit: first });
    expect(session.getSnapshot().canUndo).toBe(true);
    push({ edit: second });
    session.undo();
    // Both chunks go in the one step.
    expect(session.document.locations).toEqual([cafe]);
  });

  it("leaves a collaborator's import, and this user's earlier one, alone", () => {
    const { session, push, revision } = setup();
    push({ edit: first });
    session.serverStepStarted();
    push({ edit: second, uid: 'ben' });
    session.serverStepDone(revision());
    expect(session.getSnapshot().canUndo).toBe(false);
  });

  it("keeps the tab's own edits' undo steps below it", async () => {
    const { session, push, revision } = setup();
    session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { title: 'Café' } }]);
    await vi.advanceTimersByTimeAsync(200);
    session.serverStepStarted();
    push({ edit: first });
    session.serverStepDone(revision());
    session.undo();
    expect(session.document.locations.map((location) => location.title)).toEqual(['Café']);
    session.undo();
    expect(session.document.locations.map((location) => location.title)).toEqual(['Cafe']);
  });
});
