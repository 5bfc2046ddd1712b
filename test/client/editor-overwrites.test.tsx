/**
 * Same field, two people: the last writer in the server's order wins (the events say so), and
 * the one overwritten is told in place ("Ben changed the title of “Cafe” to “Café Nord”")
 * instead of seeing a silent jump; nobody is told about writes that did not overwrite them.
 */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveMapEvent } from '../../events/live-messages';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { applyEdit, type DocumentEdit, type MapEdit } from '../../events/map-edits';
import { EditorSession, type ServerCopy } from '../../client/src/features/editor/editor-session';
import { OverwriteNotices } from '../../client/src/features/editor/overwrite-notices';

const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 10, y: 20 } });
const AT = '2026-11-24T10:00:00.000Z';

/** The server: its document and revision, every write in order with who made it. */
function fakeServer() {
  const state: { document: MapDocument; revision: bigint } = { document: { ...emptyMapDocument(), locations: [cafe] }, revision: 0n };
  /** Ana's saves wait for `answer()` when held. */
  let held: Array<() => void> | null = null;
  const record = (edit: MapEdit, by: { uid: string; name: string }): LiveMapEvent => {
    state.document = applyEdit(state.document, edit);
    state.revision += 1n;
    const { type, ...fields } = edit;
    return { revision: String(state.revision), position: `${state.revision}:0`, at: AT, by, event: { type, data: { ...fields, mapId: 'm1', edited: AT } } as LiveMapEvent['event'] };
  };
  const saved: LiveMapEvent[] = [];
  return {
    state,
    copy: (): ServerCopy => ({ document: state.document, revision: state.revision }),
    hold() {
      held = [];
    },
    answer() {
      for (const resolve of held ?? []) resolve();
      held = null;
    },
    /** Ana's tab saving. */
    save: vi.fn(async (edits: MapEdit[]) => {
      for (const edit of edits) saved.push(record(edit, { uid: 'ana', name: 'Ana' }));
      const revision = String(state.revision);
      if (held) await new Promise<void>((resolve) => held!.push(resolve));
      return { revision };
    }),
    /** Ana's own events, as the live client hands them over. */
    takeSaved: () => saved.splice(0),
    /** Ben's edit, recorded on the server. */
    ben: (edit: DocumentEdit) => record(edit, { uid: 'ben', name: 'Ben' }),
    /** The server's copy after Ben's edit, with its event (the copy read after recording). */
    benPushed(edit: DocumentEdit): [ServerCopy, LiveMapEvent[]] {
      const event = record(edit, { uid: 'ben', name: 'Ben' });
      return [{ document: state.document, revision: state.revision }, [event]];
    },
  };
}

const rename = (title: string): DocumentEdit => ({ type: 'LocationUpdated', id: 'cafe', changes: { title } });

describe('overwrite notices', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("tells Ana when Ben's later write overwrites the title she just changed", async () => {
    const server = fakeServer();
    const session = new EditorSession({ initial: server.copy(), save: server.save, me: 'ana' });
    session.apply([rename('Cafe Sud')]);
    await vi.advanceTimersByTimeAsync(200);
    session.receive(server.copy(), server.takeSaved());
    expect(session.getSnapshot().notices).toEqual([]);

    const bens = server.ben(rename('Café Nord'));
    session.receive(server.copy(), [bens]);
    expect(session.document.locations[0]!.title).toBe('Café Nord');
    expect(session.getSnapshot().notices.map((notice) => notice.text)).toEqual(['Ben changed the title of “Cafe Sud” to “Café Nord”']);
  });

  it('says nothing when her pending write comes after his in the server order: hers wins', async () => {
    const server = fakeServer();
    const session = new EditorSession({ initial: server.copy(), save: server.save, me: 'ana' });
    session.apply([rename('Cafe Sud')]);
    // Ben's lands first; hers is still waiting to be sent, and stays on top.
    session.receive(...server.benPushed(rename('Café Nord')));
    expect(session.document.locations[0]!.title).toBe('Cafe Sud');
    await vi.advanceTimersByTimeAsync(200);
    session.receive(server.copy(), server.takeSaved());
    expect(session.document.locations[0]!.title).toBe('Cafe Sud');
    expect(session.getSnapshot().notices).toEqual([]);
  });

  it('tells her when her save is answered after his later write: his shows, with a notice', async () => {
    const server = fakeServer();
    const session = new EditorSession({ initial: server.copy(), save: server.save, me: 'ana' });
    server.hold();
    session.apply([rename('Cafe Sud')]);
    await vi.advanceTimersByTimeAsync(200);
    // Hers is recorded (revision 1) but not answered yet; his (revision 2) is pushed first.
    const hers = server.takeSaved();
    const his = server.ben(rename('Café Nord'));
    session.receive(server.copy(), [...hers, his]);
    // Still hers on top until the answer says where hers landed.
    expect(session.document.locations[0]!.title).toBe('Cafe Sud');
    expect(session.getSnapshot().notices).toEqual([]);
    server.answer();
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getSnapshot()).toMatchObject({ status: 'saved' });
    expect(session.document.locations[0]!.title).toBe('Café Nord');
    expect(session.getSnapshot().notices.map((notice) => notice.text)).toEqual(['Ben changed the title of “Cafe Sud” to “Café Nord”']);
  });

  it("says nothing about fields she did not change, changed long ago, or her own other tab's writes", async () => {
    const server = fakeServer();
    const session = new EditorSession({ initial: server.copy(), save: server.save, me: 'ana' });
    session.receive(...server.benPushed(rename('Café Nord')));
    session.apply([{ type: 'LocationUpdated', id: 'cafe', changes: { about: 'Coffee' } }]);
    await vi.advanceTimersByTimeAsync(200);
    session.receive(server.copy(), server.takeSaved());
    session.receive(...server.benPushed(rename('Café Ouest')));
    await vi.advanceTimersByTimeAsync(6_000);
    session.receive(...server.benPushed({ type: 'LocationUpdated', id: 'cafe', changes: { about: 'Tea' } }));
    expect(session.getSnapshot().notices).toEqual([]);

    session.apply([rename('Mine')]);
    await vi.advanceTimersByTimeAsync(200);
    session.receive(server.copy(), server.takeSaved());
    const otherTab = server.ben(rename('Mine, from my other tab'));
    session.receive(server.copy(), [{ ...otherTab, by: { uid: 'ana', name: 'Ana' } }]);
    expect(session.getSnapshot().notices).toEqual([]);
  });

  it("tells a rename of the map right after hers, and shows notices that go away on their own or when dismissed", async () => {
    const server = fakeServer();
    const session = new EditorSession({ initial: server.copy(), save: server.save, me: 'ana' });
    const field = { kind: 'map', id: '', field: 'title' } as const;
    session.heardField(field, 'Ben', 'Ben changed the map’s title to “Harbour”');
    expect(session.getSnapshot().notices).toEqual([]);
    session.touchField(field);
    session.heardField(field, 'Ben', 'Ben changed the map’s title to “Harbour”');
    session.heardField(field, 'Cleo', 'Cleo changed the map’s title to “Port”');

    render(<OverwriteNotices session={session} />);
    expect(screen.getByText('Ben changed the map’s title to “Harbour”')).toBeInTheDocument();
    fireEvent.click(screen.getAllByRole('button', { name: 'Dismiss' })[0]!);
    expect(screen.queryByText(/Ben changed/)).not.toBeInTheDocument();
    expect(screen.getByText('Cleo changed the map’s title to “Port”')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(8_100));
    expect(screen.queryByText(/Cleo changed/)).not.toBeInTheDocument();
  });
});
