/**
 * The editor's data panel: exports (the server's files for the owner, files made in the tab
 * for a visitor), a JSON map previewed then imported as one DocumentImported edit (or its
 * problems named, field by field, with nothing changed), and a CSV of locations previewed row
 * by row (line, title, floor, new/updated/refused and why) before only the good rows go in.
 */
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { importLocationsCsv } from '../../events/locations-csv';
import { emptyMapDocument, Location, MapDocument } from '../../events/map-document';
import { applyEdit, checkEdit, type MapEdit } from '../../events/map-edits';
import { ImportExportPanel, readMapJson } from '../../client/src/features/editor/panels/import-export-panel';
import type { OnEdit } from '../../client/src/features/editor/panels/panel-props';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function mall(): MapDocument {
  const blank = emptyMapDocument();
  return {
    ...blank,
    layers: [...blank.layers, { id: 'upper', name: 'Level 1', file: null }],
    groups: [{ id: 'food', name: 'Food & drink', color: '#ea580c', legend: true }],
    locations: [
      Location.parse({ id: 'cafe', title: 'Café Noir', layer: 'ground', groups: ['food'], position: { x: 10, y: 10 } }),
      Location.parse({ id: 'bank', title: 'Bank', layer: 'upper' }),
    ],
  };
}

/** The panel in a stand-in editor that applies each batch at once (every edit must fit). */
function renderPanel({ canDownload = true, initial = mall() } = {}) {
  const batches: MapEdit[][] = [];
  let latest = initial;
  let setFromOutside: (document: MapDocument) => void = () => {};
  function Harness() {
    const [document, setDocument] = useState(initial);
    setFromOutside = setDocument;
    const onEdit: OnEdit = (edits) => {
      let next = document;
      for (const edit of edits) {
        expect(checkEdit(next, edit)).toBeNull();
        next = applyEdit(next, edit);
      }
      batches.push(edits);
      latest = next;
      setDocument(next);
    };
    return <ImportExportPanel document={document} onEdit={onEdit} mapId="m 1" title="Harbour Market" canDownload={canDownload} />;
  }
  render(<Harness />);
  return { batches, document: () => latest, replaceDocument: (document: MapDocument) => setFromOutside(document) };
}

const jsonFile = (value: unknown, name = 'map.json') => new File([typeof value === 'string' ? value : JSON.stringify(value)], name, { type: 'application/json' });
const csvFile = (lines: string[], name = 'shops.csv') => new File([lines.join('\r\n')], name, { type: 'text/csv' });

/** A blob's text (jsdom's Blob has no text()). */
const blobText = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });

describe('exporting', () => {
  it("links the owner's downloads to the server's exports", () => {
    renderPanel();
    expect(screen.getByRole('link', { name: 'Download map (JSON)' })).toHaveAttribute('href', '/api/maps/m%201/export.json');
    expect(screen.getByRole('link', { name: 'Download locations (CSV)' })).toHaveAttribute('href', '/api/maps/m%201/locations.csv');
  });

  it('makes the files in the tab for a visitor, from the document as it is', async () => {
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return 'blob:test';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderPanel({ canDownload: false });
    expect(screen.queryByRole('link', { name: 'Download map (JSON)' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Download map (JSON)' }));
    const downloaded = clicks.mock.contexts[0] as HTMLAnchorElement;
    expect(downloaded.download).toBe('Harbour-Market.json');
    const exported = JSON.parse(await blobText(blobs[0]!)) as { title: string; document: unknown };
    expect(exported.title).toBe('Harbour Market');
    expect(MapDocument.parse(exported.document)).toEqual(mall());

    await user.click(screen.getByRole('button', { name: 'Download locations (CSV)' }));
    expect((clicks.mock.contexts[1] as HTMLAnchorElement).download).toBe('Harbour-Market-locations.csv');
    const csv = await blobText(blobs[1]!);
    expect(csv.split('\r\n')[0]).toMatch(/^\uFEFF?id,title,about,layer/);
    expect(csv).toContain('Café Noir');
  });
});

describe('importing a map from JSON', () => {
  const imported: MapDocument = {
    ...emptyMapDocument(),
    layers: [
      { id: 'ground', name: 'Ground', file: null },
      { id: 'roof', name: 'Roof', file: null },
    ],
    groups: [{ id: 'shops', name: 'Shops', color: '#0ea5e9', legend: true }],
    locations: [Location.parse({ id: 'x', title: 'Imported', layer: 'roof', groups: ['shops'] })],
  };

  it('previews an export, warns that it replaces the map, then imports it as one DocumentImported edit', async () => {
    const user = userEvent.setup();
    const { batches, document } = renderPanel();
    await user.upload(screen.getByLabelText('Choose a JSON file'), jsonFile({ title: 'Other market', document: imported }, 'other.json'));

    const preview = await screen.findByRole('region', { name: 'JSON import preview' });
    expect(preview).toHaveTextContent('other.json holds 2 floors, 1 location and 1 group.');
    expect(preview).toHaveTextContent('Exported from “Other market”');
    expect(preview).toHaveTextContent('It replaces everything on this map (2 floors, 2 locations). You can undo it.');
    expect(batches).toEqual([]);

    await user.click(within(preview).getByRole('button', { name: 'Replace the map' }));
    expect(batches).toEqual([[{ type: 'DocumentImported', document: imported }]]);
    expect(document().locations.map((location) => location.title)).toEqual(['Imported']);
    expect(screen.queryByRole('region', { name: 'JSON import preview' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Imported other.json.');
  });

  it('takes a bare document too, and a dropped file', async () => {
    const { batches } = renderPanel();
    const zone = screen.getByLabelText('Choose a JSON file').closest('.ep-io-drop')!;
    fireEvent.dragOver(zone, { dataTransfer: { files: [], dropEffect: 'none' } });
    expect(zone).toHaveAttribute('data-over', 'true');
    fireEvent.drop(zone, { dataTransfer: { files: [jsonFile(imported, 'bare.json')] } });
    const preview = await screen.findByRole('region', { name: 'JSON import preview' });
    expect(zone).not.toHaveAttribute('data-over');
    expect(preview).toHaveTextContent('bare.json holds 2 floors, 1 location and 1 group.');
    expect(preview).not.toHaveTextContent('Exported from');
    await userEvent.click(within(preview).getByRole('button', { name: 'Replace the map' }));
    expect(batches).toEqual([[{ type: 'DocumentImported', document: imported }]]);
  });

  it('names the problems of a file that is not a valid map (path: message, the first ten), and gives no edit', async () => {
    const user = userEvent.setup();
    const { batches, document } = renderPanel();
    const broken = {
      ...emptyMapDocument(),
      locations: [
        ...Array.from({ length: 11 }, (_, i) => ({ id: `l${i}`, title: '', layer: 'ground' })),
        { id: 'x', title: 'Upstairs', layer: 'attic' },
      ],
    };
    const issues = MapDocument.safeParse(broken).error!.issues.length;
    expect(issues).toBeGreaterThan(10);
    await user.upload(screen.getByLabelText('Choose a JSON file'), jsonFile({ title: 'Broken', document: broken }, 'broken.json'));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('broken.json is not a map this editor can read');
    const problems = within(alert).getAllByRole('listitem').map((item) => item.textContent);
    expect(problems).toHaveLength(10);
    expect(problems[0]).toBe('document.locations.0.title: is required');
    expect(alert).toHaveTextContent(`and ${issues - 10} more problem`);
    expect(alert).toHaveTextContent('Nothing was changed.');
    expect(screen.queryByRole('button', { name: 'Replace the map' })).not.toBeInTheDocument();
    expect(batches).toEqual([]);
    expect(document()).toEqual(mall());
  });

  it('says when a file is not JSON, or JSON that is no map at all', async () => {
    const user = userEvent.setup();
    const { batches } = renderPanel();
    await user.upload(screen.getByLabelText('Choose a JSON file'), jsonFile('{"layers": [', 'cut.json'));
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is not JSON.');
    await user.upload(screen.getByLabelText('Choose a JSON file'), jsonFile({ name: 'my-package', private: true }, 'package.json'));
    expect(await screen.findByRole('alert')).toHaveTextContent(/package.json is not a map this editor can read:\s*The file is JSON but not a map: it has no version, layers or locations/);
    await user.upload(screen.getByLabelText('Choose a JSON file'), jsonFile([1, 2], 'list.json'));
    expect(await screen.findByRole('alert')).toHaveTextContent(/the file: .*expected object/);
    expect(batches).toEqual([]);
  });

  describe('a map whose floors have drawings on other sites', () => {
    const TRACKER = 'https://tracker.example/floor.svg';
    const STORED = '/files/storedCopyOfFloor00001';
    const withForeignDrawings = {
      ...imported,
      layers: [
        { id: 'ground', name: 'Ground', file: null },
        { id: 'roof', name: 'Roof', file: { kind: 'svg', url: TRACKER, width: 800, height: 600 } },
        { id: 'cellar', name: 'Cellar', file: { kind: 'image', url: 'http://10.0.0.1/cellar.png', width: 10, height: 10 } },
        { id: 'annex', name: 'Annex', file: { kind: 'svg', url: TRACKER, width: 800, height: 600 } },
      ],
    };

    /** The server's from-url route: copies the tracker's floor, refuses the private address. */
    function serverCopying() {
      const asked: unknown[] = [];
      vi.stubGlobal(
        'fetch',
        vi.fn(async (input: string, init: RequestInit) => {
          expect(input).toBe('/api/files/from-url');
          expect(init.method).toBe('POST');
          const { data } = JSON.parse(String(init.body)) as { data: { url: string } };
          asked.push(data.url);
          const answer =
            data.url === TRACKER
              ? { status: 200, body: { result: { id: 'storedCopyOfFloor00001', url: STORED, kind: 'svg', contentType: 'image/svg+xml', width: 400, height: 300, size: 812 } } }
              : { status: 400, body: { error: { status: 'INVALID_ARGUMENT', message: 'The address 10.0.0.1 is not a public one.' } } };
          return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
        }),
      );
      return asked;
    }

    it('has the server copy each drawing once, says what became of each floor, and imports the copies', async () => {
      const asked = serverCopying();
      const user = userEvent.setup();
      const { batches, document } = renderPanel();
      await user.upload(screen.getByLabelText('Choose a JSON file'), jsonFile({ title: 'Elsewhere', document: withForeignDrawings }, 'elsewhere.json'));

      const preview = await screen.findByRole('region', { name: 'JSON import preview' });
      expect(asked).toEqual([TRACKER, 'http://10.0.0.1/cellar.png']);
      const notes = within(within(preview).getByRole('list', { name: 'Floor drawings from other sites' })).getAllByRole('listitem').map((item) => item.textContent);
      expect(notes).toEqual([
        `Floor “Roof”: its drawing at ${TRACKER} was copied to this site.`,
        'Floor “Cellar”: its drawing at http://10.0.0.1/cellar.png could not be copied, so the floor comes without it. The address 10.0.0.1 is not a public one.',
        `Floor “Annex”: its drawing at ${TRACKER} was copied to this site.`,
      ]);

      await user.click(within(preview).getByRole('button', { name: 'Replace the map' }));
      const copy = { kind: 'svg', url: STORED, width: 400, height: 300 };
      expect(document().layers).toEqual([
        { id: 'ground', name: 'Ground', file: null },
        { id: 'roof', name: 'Roof', file: copy },
        { id: 'cellar', name: 'Cellar', file: null },
        { id: 'annex', name: 'Annex', file: copy },
      ]);
      expect(JSON.stringify(batches)).not.toContain('tracker.example');
    });

    it('never takes a foreign drawing as it is', () => {
      const read = readMapJson(JSON.stringify(withForeignDrawings));
      expect(read.ok).toBe(false);
      expect(!read.ok && read.problems[0]).toBe(
        'layers.1.file.url: must be a file stored by this site (/files/{id}): upload the drawing, or add it from its address with POST /api/files/from-url',
      );
    });
  });

  it('reads what the server exports', () => {
    const exported = JSON.stringify({ title: 'Harbour Market', document: mall() }, null, 2);
    expect(readMapJson(`\uFEFF${exported}`)).toEqual({ ok: true, document: mall(), title: 'Harbour Market' });
  });
});

describe('importing locations from CSV', () => {
  const header = 'id,title,about,layer,x,y,element,marker,color,label,groups,link,phone,hours,image,thumbnail,hidden';

  it('shows each row with its line, title, floor and status, says why refused rows are refused, and imports only the good rows', async () => {
    const user = userEvent.setup();
    const { batches, document } = renderPanel();
    const lines = [
      header,
      'kiosk,Kiosk,,Ground floor,5,5,,pin,,,,,,,,,no',
      'ghost,,,Ground floor,,,,,,,,,,,,,no',
      'bank,Bank & Trust,,Level 1,,,,,,,Food & drink,,,,,,no',
      'toys,Toy Town,,Level 1,,,,,,,Toys,,,,,,no',
      'attic,Attic bar,,Attic,,,,,,,,,,,,,no',
      ',Bakery,,,1,,,,,,,,,,,,no',
    ];
    await user.upload(screen.getByLabelText('Choose a CSV file'), csvFile(lines));

    const preview = await screen.findByRole('region', { name: 'CSV import preview' });
    expect(preview).toHaveTextContent('shops.csv: 1 new, 1 updated, 4 refused.');
    const rows = within(within(preview).getByRole('table')).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent))).toEqual([
      ['2', 'Kiosk', 'Ground floor', 'New'],
      ['3', '(no title)', 'Ground floor', 'Refusedtitle: is required'],
      ['4', 'Bank & Trust', 'Level 1', 'Updated'],
      ['5', 'Toy Town', 'Level 1', 'Refusedgroups: there is no group "Toys"'],
      ['6', 'Attic bar', 'Attic', 'Refusedlayer: there is no layer "Attic"'],
      ['7', 'Bakery', '–', 'Refusedx, y: give both coordinates or neither'],
    ]);
    expect(preview).toHaveTextContent('Line 5: groups: there is no group "Toys"');

    await user.click(within(preview).getByRole('button', { name: 'Import 2 locations' }));
    // One batch: exactly the parser's edits for the good rows.
    expect(batches).toEqual([importLocationsCsv(mall(), lines.join('\r\n')).edits]);
    expect(batches[0]!.map((edit) => edit.type)).toEqual(['LocationAdded', 'LocationUpdated']);
    expect(document().locations.map((location) => location.title)).toEqual(['Café Noir', 'Bank & Trust', 'Kiosk']);
    expect(document().locations.find((location) => location.id === 'bank')!.groups).toEqual(['food']);
    expect(screen.queryByRole('region', { name: 'CSV import preview' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Imported 2 locations from shops.csv.');
  });

  it('says what is wrong with a file without a title column, and imports nothing', async () => {
    const user = userEvent.setup();
    const { batches } = renderPanel();
    await user.upload(screen.getByLabelText('Choose a CSV file'), csvFile(['name,x,y', 'Kiosk,1,2'], 'names.csv'));
    const preview = await screen.findByRole('region', { name: 'CSV import preview' });
    expect(within(preview).getByRole('alert')).toHaveTextContent('The file needs a "title" column.');
    expect(within(preview).queryByRole('table')).not.toBeInTheDocument();
    expect(within(preview).getByRole('button', { name: 'Import 0 locations' })).toBeDisabled();
    await user.click(within(preview).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'CSV import preview' })).not.toBeInTheDocument();
    expect(batches).toEqual([]);
  });

  it('shows the first hundred rows of a large file, counts the rest, and imports them all', async () => {
    const user = userEvent.setup();
    const { batches, document } = renderPanel();
    const lines = ['title,layer', ...Array.from({ length: 250 }, (_, i) => `Stall ${i + 1},${i % 2 ? 'Level 1' : 'Ground floor'}`)];
    await user.upload(screen.getByLabelText('Choose a CSV file'), csvFile(lines, 'stalls.csv'));
    const preview = await screen.findByRole('region', { name: 'CSV import preview' });
    expect(preview).toHaveTextContent('stalls.csv: 250 new, 0 updated, 0 refused.');
    expect(within(within(preview).getByRole('table')).getAllByRole('row')).toHaveLength(1 + 100);
    expect(preview).toHaveTextContent('The first 100 rows are shown; 150 more rows are in the file.');
    await user.click(within(preview).getByRole('button', { name: 'Import 250 locations' }));
    expect(batches).toHaveLength(1);
    expect(batches[0]).toHaveLength(250);
    expect(document().locations).toHaveLength(252);
  });

  it('reads the file against the map as it is now: a location added meanwhile is updated, not added again', async () => {
    const user = userEvent.setup();
    const { replaceDocument, batches } = renderPanel();
    await user.upload(screen.getByLabelText('Choose a CSV file'), csvFile(['id,title', 'kiosk,Kiosk']));
    const preview = await screen.findByRole('region', { name: 'CSV import preview' });
    expect(preview).toHaveTextContent('1 new, 0 updated');
    // A collaborator adds the same location before the import.
    const meanwhile = { ...mall(), locations: [...mall().locations, Location.parse({ id: 'kiosk', title: 'Old kiosk', layer: 'ground' })] };
    act(() => replaceDocument(meanwhile));
    expect(preview).toHaveTextContent('0 new, 1 updated');
    await user.click(within(preview).getByRole('button', { name: 'Import 1 location' }));
    expect(batches[0]!.map((edit) => edit.type)).toEqual(['LocationUpdated']);
  });
});
