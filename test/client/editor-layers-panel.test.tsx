/**
 * The editor's floors panel, used as a person uses it (by role and label) inside a stand-in for
 * the editor: the exact edits it gives, each valid against its document, and input the
 * document's schema refuses shown in place without any edit. Uploads go through the real
 * `uploadFile` with XMLHttpRequest answered here, and the upload limit through `fetch`.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Location, type MapDocument } from '../../events/map-document';
import { LayersPanel } from '../../client/src/features/editor/panels/layers-panel';
import type { OnEdit } from '../../client/src/features/editor/panels/panel-props';
import { documentWith, expectValidEdits, renderPanel } from './support/panel-harness';

function mall(): MapDocument {
  return documentWith((blank) => ({
    layers: [...blank.layers, { id: 'upper', name: 'Level 1', file: null }],
    locations: [
      Location.parse({ id: 'cafe', title: 'Café Noir', layer: 'ground', position: { x: 10, y: 10 } }),
      Location.parse({ id: 'sushi', title: 'Sakura Sushi', layer: 'upper' }),
      Location.parse({ id: 'bank', title: 'Bank', layer: 'upper' }),
    ],
  }));
}

/** The floors panel with the editor's choice of floor kept as state, as the editor keeps it. */
function Floors({ document, onEdit, onSelect, initial }: { document: MapDocument; onEdit: OnEdit; onSelect: (id: string) => void; initial: string }) {
  const [current, setCurrent] = useState(initial);
  return (
    <LayersPanel
      document={document}
      onEdit={onEdit}
      currentLayerId={current}
      onSelectLayer={(id) => {
        onSelect(id);
        setCurrent(id);
      }}
    />
  );
}

function renderFloors(document = mall(), initial = 'ground') {
  const onSelect = vi.fn<(id: string) => void>();
  const panel = renderPanel((doc, onEdit) => <Floors document={doc} onEdit={onEdit} onSelect={onSelect} initial={initial} />, document);
  return { ...panel, onSelect };
}

/** `POST /api/files` as the server answers it, each request answered by the test. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  status = 0;
  responseText = '';
  url = '';
  body: unknown = null;
  timeout = 0;
  withCredentials = false;
  headers: Record<string, string> = {};
  upload: { onprogress: null | ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) } = { onprogress: null };
  onload: null | (() => void) = null;
  onerror: null | (() => void) = null;
  onabort: null | (() => void) = null;
  ontimeout: null | (() => void) = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ lengthComputable: true, loaded, total }));
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    act(() => this.onload?.());
  }
}

const LIMIT = 1024 * 1024;

beforeEach(() => {
  FakeXhr.sent = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  // GET /api/files/limits: this server takes files up to 1 MB.
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => ({ status: 200, text: async () => JSON.stringify({ result: { maxBytes: LIMIT, types: ['image/svg+xml', 'image/png', 'image/jpeg', 'image/webp'] } }) })),
  );
});

afterEach(() => vi.unstubAllGlobals());

const svgFile = (name = 'plan.svg') => new File(['<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 800 600"/>'], name, { type: 'image/svg+xml' });

describe('the floors panel', () => {
  it('lists the floors in order, marks the one shown and shows another when chosen', async () => {
    const user = userEvent.setup();
    const { onSelect, calls } = renderFloors();
    const list = screen.getByRole('list', { name: 'Floors' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('textbox', { name: 'Name of Ground floor' })).toHaveValue('Ground floor');
    expect(rows[0]).toHaveTextContent('1 location');
    expect(rows[0]).toHaveTextContent('Opens first');
    expect(rows[1]).toHaveTextContent('2 locations');
    expect(screen.getByRole('button', { name: 'Show Ground floor' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Show Level 1' })).toHaveAttribute('aria-pressed', 'false');

    await user.click(screen.getByRole('button', { name: 'Show Level 1' }));
    expect(onSelect).toHaveBeenCalledWith('upper');
    expect(screen.getByRole('button', { name: 'Show Level 1' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Show Ground floor' })).toHaveAttribute('aria-pressed', 'false');
    // Choosing what the canvas shows changes nothing in the map.
    expect(calls).toEqual([]);
    await waitFor(() => expect(screen.getByText(/up to 1 MB/)).toBeInTheDocument());
  });

  it('renames a floor as one coalesced edit per keystroke, refusing an empty name without an edit', async () => {
    const user = userEvent.setup();
    const { calls, document, edits } = renderFloors();
    const name = screen.getByRole('textbox', { name: 'Name of Level 1' });
    await user.clear(name);
    // Empty: the schema's message under the field, the draft kept, nothing given.
    expect(calls).toEqual([]);
    expect(name).toHaveValue('');
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Name is required');
    expect(screen.getByText('Name is required')).toBeInTheDocument();

    await user.type(name, 'Mezz');
    expect(edits()).toEqual(['M', 'Me', 'Mez', 'Mezz'].map((text) => [{ type: 'LayerRenamed', id: 'upper', name: text }]));
    expect(calls.every((call) => call.options?.coalesce === 'layer:upper:name')).toBe(true);
    expect(screen.queryByText('Name is required')).not.toBeInTheDocument();
    expect(document().layers[1]!.name).toBe('Mezz');

    // Only spaces: refused too; the last good name stays in the document.
    await user.clear(name);
    await user.type(name, '   ');
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    expect(calls).toHaveLength(4);
    expect(document().layers[1]!.name).toBe('Mezz');

    // Too long: the schema's own message.
    fireEvent.change(name, { target: { value: 'x'.repeat(101) } });
    expect(screen.getByText('Name must be at most 100 characters')).toBeInTheDocument();
    expect(calls).toHaveLength(4);
    expectValidEdits(calls);
  });

  it("shows a collaborator's new name while the field is not being edited, and keeps the user's draft while it is", async () => {
    const user = userEvent.setup();
    const { collaborator } = renderFloors();
    collaborator({ type: 'LayerRenamed', id: 'upper', name: 'Mezzanine' });
    const name = screen.getByRole('textbox', { name: 'Name of Mezzanine' });
    expect(name).toHaveValue('Mezzanine');

    await user.click(name);
    await user.type(name, '!');
    collaborator({ type: 'LayerRenamed', id: 'upper', name: 'Gallery' });
    expect(name).toHaveValue('Mezzanine!');
  });

  it('moves floors up and down with LayersReordered, keeping the focus on the floor moved', async () => {
    const user = userEvent.setup();
    const { calls, edits, document } = renderFloors(
      documentWith((blank) => ({ layers: [...blank.layers, { id: 'upper', name: 'Level 1', file: null }, { id: 'roof', name: 'Roof', file: null }] })),
    );
    expect(screen.getByRole('button', { name: 'Move Ground floor up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move Roof down' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Move Level 1 up' }));
    expect(edits()).toEqual([[{ type: 'LayersReordered', order: ['upper', 'ground', 'roof'] }]]);
    // At the top now: "up" is off, so the focus moves to the floor's other arrow.
    expect(screen.getByRole('button', { name: 'Move Level 1 up' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Move Level 1 down' })).toHaveFocus();

    await user.keyboard('{Enter}');
    expect(edits()[1]).toEqual([{ type: 'LayersReordered', order: ['ground', 'upper', 'roof'] }]);
    expect(screen.getByRole('button', { name: 'Move Level 1 down' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(edits()[2]).toEqual([{ type: 'LayersReordered', order: ['ground', 'roof', 'upper'] }]);
    expect(screen.getByRole('button', { name: 'Move Level 1 up' })).toHaveFocus();

    const names = within(screen.getByRole('list', { name: 'Floors' }))
      .getAllByRole('textbox')
      .map((input) => (input as HTMLInputElement).value);
    expect(names).toEqual(['Ground floor', 'Roof', 'Level 1']);
    expect(document().layers.map((layer) => layer.id)).toEqual(['ground', 'roof', 'upper']);
    expectValidEdits(calls);
  });

  it('makes a floor the one visitors open on, giving the whole settings', async () => {
    const user = userEvent.setup();
    const before = mall();
    const { calls, edits } = renderFloors(before);
    expect(screen.queryByRole('button', { name: 'Open on Ground floor first' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open on Level 1 first' }));
    expect(edits()).toEqual([[{ type: 'SettingsChanged', settings: { ...before.settings, defaultLayer: 'upper' } }]]);
    const rows = within(screen.getByRole('list', { name: 'Floors' })).getAllByRole('listitem');
    expect(rows[1]).toHaveTextContent('Opens first');
    expect(rows[0]).not.toHaveTextContent('Opens first');
    expect(screen.getByRole('button', { name: 'Open on Ground floor first' })).toBeInTheDocument();
    expectValidEdits(calls);
  });

  it('adds "Floor N" without a drawing, shows it and puts the focus on its name', async () => {
    const user = userEvent.setup();
    const { calls, edits, onSelect, document } = renderFloors();
    await user.click(screen.getByRole('button', { name: '+ Add floor' }));
    expect(edits()).toEqual([[{ type: 'LayerAdded', layer: { id: expect.stringMatching(/^layer-[A-Za-z0-9]+$/), name: 'Floor 3', file: null } }]]);
    const added = document().layers[2]!;
    expect(onSelect).toHaveBeenCalledWith(added.id);
    expect(screen.getByRole('button', { name: 'Show Floor 3' })).toHaveAttribute('aria-pressed', 'true');
    const name = screen.getByRole('textbox', { name: 'Name of Floor 3' });
    expect(name).toHaveFocus();
    // Its name is selected: typing replaces it.
    await user.keyboard('Basement');
    expect(document().layers[2]!.name).toBe('Basement');

    // A name taken already is skipped.
    await user.click(screen.getByRole('button', { name: '+ Add floor' }));
    expect(document().layers[3]!.name).toBe('Floor 4');
    expectValidEdits(calls);
  });

  it('deletes a floor and its locations after saying how many, and shows its neighbour', async () => {
    const user = userEvent.setup();
    const { calls, edits, document, onSelect } = renderFloors(mall(), 'upper');
    await user.click(screen.getByRole('button', { name: 'Delete Level 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Level 1?' });
    expect(dialog).toHaveTextContent('Its 2 locations are deleted with it. You can undo this.');

    // Cancel gives nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Level 1' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete floor' }));
    expect(edits()).toEqual([[{ type: 'LayerRemoved', id: 'upper', removedLocations: ['sushi', 'bank'] }]]);
    expect(document().layers.map((layer) => layer.id)).toEqual(['ground']);
    expect(document().locations.map((location) => location.id)).toEqual(['cafe']);
    // The floor shown went away: its neighbour is shown.
    expect(onSelect).toHaveBeenLastCalledWith('ground');
    expectValidEdits(calls);
  });

  it('says a floor without locations has none, and keeps the last floor with the reason', async () => {
    const user = userEvent.setup();
    const { calls } = renderFloors(documentWith((blank) => ({ layers: [...blank.layers, { id: 'roof', name: 'Roof', file: null }] })));
    await user.click(screen.getByRole('button', { name: 'Delete Roof' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('It has no locations. You can undo this.');
    await user.click(screen.getByRole('button', { name: 'Delete floor' }));
    expect(calls.map((call) => call.edits)).toEqual([[{ type: 'LayerRemoved', id: 'roof', removedLocations: [] }]]);

    const last = screen.getByRole('button', { name: /Ground floor cannot be deleted/ });
    expect(last).toBeDisabled();
    expect(last).toHaveAccessibleDescription('A map keeps at least one floor, so the last one cannot be deleted.');
    expect(screen.getByText('A map keeps at least one floor, so the last one cannot be deleted.')).toBeVisible();
  });

  it('closes the dialog without an edit when a collaborator deletes the floor first', async () => {
    const user = userEvent.setup();
    const { calls, collaborator } = renderFloors();
    await user.click(screen.getByRole('button', { name: 'Delete Level 1' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    collaborator({ type: 'LayerRemoved', id: 'upper', removedLocations: ['sushi', 'bank'] });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls).toEqual([]);
  });

  it("uploads a floor's drawing with its progress, puts it on the floor, then removes it", async () => {
    const user = userEvent.setup();
    const { calls, edits, document } = renderFloors();
    await user.upload(screen.getByLabelText('Drawing file for Level 1'), svgFile());
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const xhr = FakeXhr.sent[0]!;
    expect(xhr.url).toBe('/api/files');

    xhr.progress(40, 100);
    const bar = screen.getByRole('progressbar', { name: 'Uploading plan.svg' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    expect(screen.getByText('Uploading plan.svg · 40%')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload the drawing of Level 1' })).toBeDisabled();
    expect(calls).toEqual([]);

    xhr.respond(201, { result: { id: 'floorPlanUpload0000001', url: '/files/floorPlanUpload0000001', kind: 'svg', contentType: 'image/svg+xml', width: 800, height: 600, size: 120 } });
    await waitFor(() => expect(edits()).toEqual([[{ type: 'LayerFileReplaced', id: 'upper', file: { kind: 'svg', url: '/files/floorPlanUpload0000001', width: 800, height: 600 } }]]));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(screen.getAllByRole('listitem')[1]!).getByText(/SVG 800×600/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove the drawing of Level 1' }));
    expect(edits()[1]).toEqual([{ type: 'LayerFileReplaced', id: 'upper', file: null }]);
    expect(document().layers[1]!.file).toBeNull();
    expect(screen.getByRole('button', { name: 'Upload the drawing of Level 1' })).toBeEnabled();
    expectValidEdits(calls);
  });

  it("replaces an image drawing with the server's kind and size", async () => {
    const user = userEvent.setup();
    const withDrawing = documentWith(() => ({ layers: [{ id: 'ground', name: 'Ground floor', file: { kind: 'svg', url: '/files/floorPlanUpload0000000', width: 100, height: 100 } }] }));
    const { edits } = renderFloors(withDrawing);
    await user.upload(screen.getByLabelText('Drawing file for Ground floor'), new File([new Uint8Array([137, 80, 78, 71])], 'scan.png', { type: 'image/png' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.respond(201, { result: { id: 'floorPlanUpload0000002', url: '/files/floorPlanUpload0000002', kind: 'image', contentType: 'image/png', width: 2400, height: 1600, size: 4 } });
    await waitFor(() => expect(edits()).toEqual([[{ type: 'LayerFileReplaced', id: 'ground', file: { kind: 'image', url: '/files/floorPlanUpload0000002', width: 2400, height: 1600 } }]]));
    expect(screen.getByRole('button', { name: 'Replace the drawing of Ground floor' })).toBeInTheDocument();
  });

  it("shows the server's refusal of a file and gives no edit", async () => {
    const user = userEvent.setup();
    const { calls } = renderFloors();
    await user.upload(screen.getByLabelText('Drawing file for Level 1'), svgFile('notes.svg'));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    FakeXhr.sent[0]!.respond(415, { error: { code: 'invalid-argument', message: 'This file is not an SVG, PNG, JPEG or WebP image.' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('This file is not an SVG, PNG, JPEG or WebP image.');
    expect(calls).toEqual([]);
  });

  it("refuses a file over the server's limit before sending it", async () => {
    const user = userEvent.setup();
    const { calls } = renderFloors();
    await waitFor(() => expect(screen.getByText(/up to 1 MB/)).toBeInTheDocument());
    const big = new File([new Uint8Array(LIMIT + 1)], 'huge.png', { type: 'image/png' });
    await user.upload(screen.getByLabelText('Drawing file for Ground floor'), big);
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is too large (the limit is 1 MB).');
    expect(FakeXhr.sent).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('cancels an upload on its way without an edit', async () => {
    const user = userEvent.setup();
    const { calls } = renderFloors();
    await user.upload(screen.getByLabelText('Drawing file for Level 1'), svgFile());
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'Cancel the upload to Level 1' }));
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('is used with the keyboard alone: add a floor, name it, move it up and show it', async () => {
    const user = userEvent.setup();
    const { document, onSelect } = renderFloors();
    const add = screen.getByRole('button', { name: '+ Add floor' });
    add.focus();
    await user.keyboard('{Enter}');
    await user.keyboard('Attic{Enter}');
    expect(document().layers[2]!.name).toBe('Attic');
    const up = screen.getByRole('button', { name: 'Move Attic up' });
    up.focus();
    await user.keyboard(' ');
    expect(document().layers.map((layer) => layer.name)).toEqual(['Ground floor', 'Attic', 'Level 1']);
    screen.getByRole('button', { name: 'Show Ground floor' }).focus();
    await user.keyboard('{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith('ground');
  });
});
