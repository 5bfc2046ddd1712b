/**
 * The editor's floors, groups, settings, share and data panels, each in a small stand-in for
 * the editor that applies the edits it is given (as the editor does, at once): what a person
 * does, the exact edits given, every edit valid against the document it was made on, and bad
 * input shown without any edit.
 */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { applyEdit, checkEdit, type MapEdit } from '../../events/map-edits';
import { GroupsPanel } from '../../client/src/features/editor/panels/groups-panel';
import { ImportExportPanel } from '../../client/src/features/editor/panels/import-export-panel';
import { LayersPanel } from '../../client/src/features/editor/panels/layers-panel';
import type { OnEdit } from '../../client/src/features/editor/panels/panel-props';
import { SettingsPanel } from '../../client/src/features/editor/panels/settings-panel';
import { SharePanel } from '../../client/src/features/editor/panels/share-panel';
import { SessionContext, type Session } from '../../client/src/lib/session';

afterEach(() => vi.unstubAllGlobals());

function mall(): MapDocument {
  const blank = emptyMapDocument();
  return {
    ...blank,
    layers: [...blank.layers, { id: 'upper', name: 'Level 1', file: null }],
    groups: [{ id: 'food', name: 'Food & drink', color: '#ea580c', legend: true }],
    locations: [
      Location.parse({ id: 'cafe', title: 'Café Noir', layer: 'ground', groups: ['food'], position: { x: 10, y: 10 } }),
      Location.parse({ id: 'sushi', title: 'Sakura Sushi', layer: 'upper', groups: ['food'] }),
      Location.parse({ id: 'bank', title: 'Bank', layer: 'upper' }),
    ],
  };
}

/** Renders a panel with a document that follows its own edits; answers the edits made. */
function renderPanel(panel: (document: MapDocument, onEdit: OnEdit) => ReactNode, initial = mall()) {
  const edits: MapEdit[][] = [];
  let latest = initial;
  function Harness() {
    const [document, setDocument] = useState(initial);
    const onEdit: OnEdit = (batch) => {
      let next = document;
      for (const edit of batch) {
        expect(checkEdit(next, edit)).toBeNull();
        next = applyEdit(next, edit);
      }
      edits.push(batch);
      latest = next;
      setDocument(next);
    };
    // The layers panel uploads through the session's mode.
    return <SessionContext value={{ mode: 'local' } as Session}>{panel(document, onEdit)}</SessionContext>;
  }
  render(<Harness />);
  return { edits, document: () => latest };
}

describe('the groups panel', () => {
  it('adds, renames, recolours and hides a group from the legend', async () => {
    const user = userEvent.setup();
    const { edits, document } = renderPanel((doc, onEdit) => <GroupsPanel document={doc} onEdit={onEdit} />);
    expect(screen.getByText('2 locations')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '+ Add group' }));
    expect(edits[0]).toEqual([{ type: 'GroupAdded', group: expect.objectContaining({ name: 'Group 2', legend: true }) }]);
    const name = screen.getByRole('textbox', { name: 'Name of Group 2' });
    expect(name).toHaveFocus();
    await user.clear(name);
    expect(screen.getByText('Name is required')).toBeInTheDocument();
    await user.type(name, 'Shops');
    expect(document().groups[1]!.name).toBe('Shops');
    fireEvent.change(screen.getByLabelText('Colour of Shops'), { target: { value: '#0ea5e9' } });
    expect(document().groups[1]!.color).toBe('#0ea5e9');
    await user.click(within(screen.getAllByRole('listitem')[1]!).getByRole('checkbox', { name: 'Show in legend' }));
    expect(document().groups[1]!.legend).toBe(false);
    // Emptying the name gave no edit: every edit named something.
    expect(edits.flat().every((edit) => edit.type !== 'GroupUpdated' || edit.changes.name !== '')).toBe(true);
  });

  it('deletes a group after saying its locations stay', async () => {
    const user = userEvent.setup();
    const { document } = renderPanel((doc, onEdit) => <GroupsPanel document={doc} onEdit={onEdit} />);
    await user.click(screen.getByRole('button', { name: 'Delete Food & drink' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('Its 2 locations stay on the map and only lose this category.');
    await user.click(screen.getByRole('button', { name: 'Delete group' }));
    expect(document().groups).toEqual([]);
    expect(document().locations).toHaveLength(3);
    expect(document().locations[0]!.groups).toEqual([]);
  });
});

describe('the floors panel', () => {
  const layersPanel = (onSelectLayer = vi.fn()) => (doc: MapDocument, onEdit: OnEdit) => (
    <LayersPanel document={doc} onEdit={onEdit} currentLayerId="ground" onSelectLayer={onSelectLayer} />
  );

  it('adds a floor and shows it, reorders, renames and makes one open first', async () => {
    const user = userEvent.setup();
    const onSelectLayer = vi.fn();
    const { edits, document } = renderPanel(layersPanel(onSelectLayer));
    await user.click(screen.getByRole('button', { name: '+ Add floor' }));
    const added = document().layers[2]!;
    expect(added.name).toBe('Floor 3');
    expect(onSelectLayer).toHaveBeenCalledWith(added.id);
    await user.click(screen.getByRole('button', { name: 'Move Floor 3 up' }));
    expect(document().layers.map((layer) => layer.name)).toEqual(['Ground floor', 'Floor 3', 'Level 1']);
    expect(screen.getByRole('button', { name: 'Move Ground floor up' })).toBeDisabled();
    const name = screen.getByRole('textbox', { name: 'Name of Level 1' });
    await user.clear(name);
    await user.type(name, 'Mezzanine');
    expect(document().layers[2]!.name).toBe('Mezzanine');
    await user.click(screen.getByRole('button', { name: 'Open on Mezzanine first' }));
    expect(document().settings.defaultLayer).toBe('upper');
    expect(edits.at(-1)).toEqual([{ type: 'SettingsChanged', settings: expect.objectContaining({ defaultLayer: 'upper' }) }]);
  });

  it('deletes a floor with its locations after saying how many, and keeps the last floor', async () => {
    const user = userEvent.setup();
    const { document } = renderPanel(layersPanel());
    await user.click(screen.getByRole('button', { name: 'Delete Level 1' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('Its 2 locations are deleted with it.');
    await user.click(screen.getByRole('button', { name: 'Delete floor' }));
    expect(document().layers.map((layer) => layer.id)).toEqual(['ground']);
    expect(document().locations.map((location) => location.id)).toEqual(['cafe']);
    expect(screen.getByRole('button', { name: /Ground floor cannot be deleted/ })).toBeDisabled();
  });

  it("uploads a floor's drawing and puts it on the floor", async () => {
    const user = userEvent.setup();
    // The upload goes through XMLHttpRequest (for its progress): answer it like the server.
    class FakeXhr {
      status = 201;
      responseText = JSON.stringify({ result: { id: 'floorPlanUpload0000001', url: '/files/floorPlanUpload0000001', kind: 'svg', contentType: 'image/svg+xml', width: 800, height: 600, size: 120 } });
      upload = { onprogress: null as null | ((event: ProgressEvent) => void) };
      onload: null | (() => void) = null;
      onerror: null | (() => void) = null;
      onabort: null | (() => void) = null;
      ontimeout: null | (() => void) = null;
      timeout = 0;
      withCredentials = false;
      open() {}
      setRequestHeader() {}
      getResponseHeader() {
        return 'application/json';
      }
      abort() {}
      send() {
        setTimeout(() => this.onload?.(), 0);
      }
      addEventListener(name: string, listener: () => void) {
        if (name === 'load') this.onload = listener;
        if (name === 'error') this.onerror = listener;
        if (name === 'abort') this.onabort = listener;
        if (name === 'timeout') this.ontimeout = listener;
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const { document } = renderPanel(layersPanel());
    const input = screen.getByLabelText('Drawing file for Ground floor');
    await user.upload(input, new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'plan.svg', { type: 'image/svg+xml' }));
    await waitFor(() => expect(document().layers[0]!.file).toEqual({ kind: 'svg', url: '/files/floorPlanUpload0000001', width: 800, height: 600 }));
    expect(screen.getByRole('button', { name: 'Remove the drawing of Ground floor' })).toBeInTheDocument();
  });
});

describe('the settings panel', () => {
  it('changes the zoom range, refusing a minimum above the maximum', async () => {
    const user = userEvent.setup();
    const { edits, document } = renderPanel((doc, onEdit) => <SettingsPanel document={doc} onEdit={onEdit} />);
    const max = screen.getByRole('spinbutton', { name: 'Maximum zoom' });
    await user.clear(max);
    await user.type(max, '12');
    expect(document().settings.maxZoom).toBe(12);
    const min = screen.getByRole('spinbutton', { name: 'Minimum zoom' });
    const before = edits.length;
    await user.clear(min);
    await user.type(min, '20');
    expect(screen.getByText('Minimum zoom can be at most the maximum zoom.')).toBeInTheDocument();
    expect(document().settings.minZoom).toBeLessThanOrEqual(12);
    // Typing "2" then "20": only the valid "2" was given.
    expect(edits.slice(before).map((batch) => (batch[0] as { settings: { minZoom: number } }).settings.minZoom)).toEqual([2]);
  });

  it('switches viewer features, the theme and the region fills, and opens at the current view', async () => {
    const user = userEvent.setup();
    const { edits, document } = renderPanel((doc, onEdit) => <SettingsPanel document={doc} onEdit={onEdit} onUseCurrentView={() => ({ x: 300, y: 200, zoom: 2 })} />);
    await user.click(screen.getByRole('switch', { name: /Minimap/ }));
    expect(document().settings.features.minimap).toBe(true);
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(document().settings.theme.mode).toBe('dark');
    fireEvent.change(screen.getByLabelText('Fill on hover'), { target: { value: '#123456' } });
    expect(document().styles.regions.hover).toBe('#123456');
    expect(edits.at(-1)).toEqual([{ type: 'RegionStylesChanged', regions: expect.objectContaining({ hover: '#123456' }) }]);
    await user.click(screen.getByRole('button', { name: 'Use the current view' }));
    expect(document().settings.initialView).toEqual({ x: 300, y: 200, zoom: 2 });
    await user.click(screen.getByRole('button', { name: 'Reset to fit' }));
    expect(document().settings.initialView).toBeNull();
  });
});

describe('the share panel', () => {
  it('gives the link and an embed snippet for /m/{id}, and says when they are copied', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<SharePanel mapId="m1" title="Harbour Market" state={0} isTest publicUrl="https://maps.example.com" />);
    expect(screen.getByRole('note')).toHaveTextContent('This is a test map: only you can see it.');
    expect(screen.getByRole('textbox', { name: 'Link' })).toHaveValue('https://maps.example.com/m/m1');
    const code = screen.getByRole('textbox', { name: 'Embed code' });
    expect((code as HTMLTextAreaElement).value).toContain('<iframe src="https://maps.example.com/m/m1" title="Map: Harbour Market"');
    await user.click(screen.getByRole('radio', { name: '1:1' }));
    expect((code as HTMLTextAreaElement).value).toContain('aspect-ratio:1;');
    await user.click(screen.getByRole('button', { name: 'Copy embed code' }));
    expect(writeText).toHaveBeenCalledWith((code as HTMLTextAreaElement).value);
    expect(await screen.findByText('Embed code copied.')).toBeInTheDocument();
  });
});

describe('the data panel', () => {
  const dataPanel = (doc: MapDocument, onEdit: OnEdit) => <ImportExportPanel document={doc} onEdit={onEdit} mapId="m1" title="Harbour Market" canDownload />;

  it("links the owner's downloads to the server's exports", () => {
    renderPanel(dataPanel);
    expect(screen.getByRole('link', { name: 'Download map (JSON)' })).toHaveAttribute('href', '/api/maps/m1/export.json');
    expect(screen.getByRole('link', { name: 'Download locations (CSV)' })).toHaveAttribute('href', '/api/maps/m1/locations.csv');
  });

  // Importing (through the server only) is test/client/editor-import-export.test.tsx's.

});
