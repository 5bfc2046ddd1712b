/**
 * "Make locations from regions" on the floors panel (regions-dialog.tsx), used as a person uses
 * it: the list the server's preview fills, ticks, the filter (words or a pattern), select
 * all/none/all named, the count, and the one edit that makes the ticked regions locations; after
 * an SVG upload, what the sanitiser removed is said on the floor and the dialog opens by itself.
 * The server is XMLHttpRequest (the import, the upload) and fetch (limits, the drawing) here.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Location, type MapDocument } from '../../events/map-document';

const blankLocation = (id: string) => Location.parse({ id, title: id, layer: 'ground', position: { x: 1, y: 1 } });
import type { ImportPreview } from '../../events/map-import';
import { LayersPanel, type RegionImport } from '../../client/src/features/editor/panels/layers-panel';
import { matchesPattern, offeredRegions, regionLocationEdits } from '../../client/src/features/editor/panels/regions-dialog';
import { FakeXhr } from './support/fake-xhr';
import { documentWith, renderPanel } from './support/panel-harness';

const DRAWING = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><path id="shop_1" d="M0 0h10v10z"/></svg>';

function mall(): MapDocument {
  return documentWith((blank) => ({
    layers: [...blank.layers, { id: 'upper', name: 'Level 1', file: { kind: 'svg', url: '/files/upperPlan000000000001', width: 100, height: 100 } }],
  }));
}

function preview(regions: ImportPreview['regions'], extra: Partial<ImportPreview> = {}): ImportPreview {
  return {
    format: 'svg',
    counts: { layers: 0, locations: regions.filter((r) => r.selected && !r.linked).length, groups: 0, regionsLinked: 0, updated: 0, skipped: 0 },
    columns: { used: [], ignored: [] },
    mapping: null,
    availableColumns: [],
    problems: [],
    problemCount: 0,
    sample: [],
    floors: [],
    removedFloor: null,
    regions,
    replaces: false,
    revision: null,
    ...extra,
  };
}

const REGIONS: ImportPreview['regions'] = [
  { id: 'shop_1', title: 'Café Nero', selected: true, linked: false },
  { id: 'shop_2', title: 'Shop 2', selected: true, linked: false },
  { id: 'path3677', title: 'path3677', selected: false, linked: false },
  { id: 'shop_3', title: 'Boots', selected: false, linked: true },
];

let fetched: string[] = [];
beforeEach(() => {
  FakeXhr.sent = [];
  fetched = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      fetched.push(String(url));
      if (String(url).startsWith('/files/')) return { ok: true, status: 200, blob: async () => new Blob([DRAWING], { type: 'image/svg+xml' }) };
      return { ok: true, status: 200, text: async () => JSON.stringify({ result: { maxBytes: 1024 * 1024, types: ['image/svg+xml'] } }) };
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderFloors() {
  const onMade = vi.fn<RegionImport['onMade']>();
  const onSelectLayer = vi.fn();
  const panel = renderPanel(
    (doc, onEdit) => <LayersPanel document={doc} onEdit={onEdit} currentLayerId="ground" onSelectLayer={onSelectLayer} regionImport={{ mapId: 'map-1', onMade }} />,
    mall(),
  );
  return { ...panel, onMade, onSelectLayer };
}

const answer = async (xhr: FakeXhr, body: unknown, status = 200) => act(async () => xhr.respond(status, { result: body }));

describe('making locations from a floor’s regions', () => {
  it('lists the regions the server found, with their ticks, and makes the ticked ones locations in one edit', async () => {
    const user = userEvent.setup();
    const { onMade, onSelectLayer, edits, document } = renderFloors();
    // Only a floor with an SVG offers it.
    expect(screen.queryByRole('button', { name: 'Make locations from the regions of Ground floor' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Make locations from the regions of Level 1' }));

    const dialog = await screen.findByRole('dialog', { name: 'Make locations from the regions of Level 1' });
    // The map beside it shows that floor.
    expect(onSelectLayer).toHaveBeenCalledWith('upper');
    expect(within(dialog).getByRole('status')).toHaveTextContent('Reading the drawing…');
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const previewRequest = FakeXhr.sent[0]!;
    expect(fetched).toContain('/files/upperPlan000000000001');
    expect(previewRequest.url.startsWith('/api/maps/map-1/import?')).toBe(true);
    expect(previewRequest.query.get('layer')).toBe('upper');
    expect(previewRequest.query.get('apply')).toBeNull();
    // The floor's stored drawing is what is sent.
    expect(previewRequest.body).toBeInstanceOf(File);
    expect((previewRequest.body as File).name).toBe('Level 1.svg');
    expect((previewRequest.body as File).size).toBe(DRAWING.length);
    await answer(previewRequest, preview(REGIONS));

    const list = within(dialog).getByRole('list', { name: 'Regions of Level 1' });
    const box = (name: RegExp) => within(list).getByRole('checkbox', { name });
    expect(box(/Café Nero/)).toBeChecked();
    expect(box(/Shop 2/)).toBeChecked();
    expect(box(/path3677/)).not.toBeChecked();
    expect(box(/Boots/)).toBeDisabled();
    expect(within(list).getByText('already a location')).toBeInTheDocument();
    expect(within(dialog).getByRole('status')).toHaveTextContent('2 regions of 3 ticked · 1 is a location already');
    // The filter has the focus; it narrows the list, and select all/none act on what it shows.
    expect(within(dialog).getByRole('searchbox', { name: 'Filter regions' })).toHaveFocus();
    await user.keyboard('shop');
    expect(within(list).getAllByRole('checkbox')).toHaveLength(3);
    expect(within(dialog).getByRole('status')).toHaveTextContent('· 3 shown');
    await user.click(within(dialog).getByRole('button', { name: 'Clear shown' }));
    expect(within(dialog).getByRole('status')).toHaveTextContent('0 regions of 3 ticked');
    expect(within(dialog).getByRole('button', { name: 'Make 0 locations' })).toBeDisabled();
    await user.clear(within(dialog).getByRole('searchbox', { name: 'Filter regions' }));
    await user.click(within(dialog).getByRole('button', { name: 'Select all' }));
    expect(within(dialog).getByRole('status')).toHaveTextContent('3 regions of 3 ticked');
    await user.click(box(/Shop 2/));

    // "All named" ticks the named ones only.
    await user.click(within(dialog).getByRole('button', { name: 'All named' }));
    expect(within(dialog).getByRole('status')).toHaveTextContent('2 regions of 3 ticked');
    await user.click(box(/Shop 2/));
    await user.click(box(/path3677/));

    await user.click(within(dialog).getByRole('button', { name: 'Make 2 locations' }));
    // One edit, nothing sent to the server's import again.
    expect(FakeXhr.sent).toHaveLength(1);
    expect(edits()).toHaveLength(1);
    expect(edits()[0]!.map((edit) => edit.type === 'LocationAdded' && [edit.location.id, edit.location.title, edit.location.layer, edit.location.element, edit.location.position])).toEqual([
      ['shop_1', 'Café Nero', 'upper', 'shop_1', null],
      ['path3677', 'path3677', 'upper', 'path3677', null],
    ]);
    expect(document().locations).toHaveLength(2);
    expect(onMade).toHaveBeenCalledWith(2, 'Level 1');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Focus goes back to the button that opened it.
    expect(screen.getByRole('button', { name: 'Make locations from the regions of Level 1' })).toHaveFocus();
  });

  it("shows the server's refusal in its words and keeps the dialog open; Escape closes it", async () => {
    const user = userEvent.setup();
    renderFloors();
    await user.click(screen.getByRole('button', { name: 'Make locations from the regions of Level 1' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    await act(async () => FakeXhr.sent[0]!.respond(400, { error: { code: 'INVALID_ARGUMENT', message: 'The file was read as an SVG drawing, but the floor “upper” is not on this map.' } }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('The file was read as an SVG drawing, but the floor “upper” is not on this map.');
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('after an SVG upload, says what the sanitiser removed and offers the regions by itself', async () => {
    const user = userEvent.setup();
    renderFloors();
    await user.upload(screen.getByLabelText('Drawing file for Ground floor'), new File([DRAWING], 'mall.svg', { type: 'image/svg+xml' }));
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(1));
    const message = '45 embedded images were removed for safety; upload them as separate images.';
    await act(async () =>
      FakeXhr.sent[0]!.respond(200, {
        result: { id: 'mallPlan00000000000001', url: '/files/mallPlan00000000000001', kind: 'svg', contentType: 'image/svg+xml', width: 100, height: 100, size: 120, removed: [{ what: 'embedded images', count: 45, message }] },
      }),
    );
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByText("Removed from Ground floor's drawing:")).toBeInTheDocument();
    // The regions of the new drawing, read in the background, open the dialog.
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    expect(FakeXhr.sent[1]!.query.get('layer')).toBe('ground');
    await answer(FakeXhr.sent[1]!, preview(REGIONS.slice(0, 2)));
    const dialog = await screen.findByRole('dialog', { name: 'Make locations from the regions of Ground floor' });
    expect(within(dialog).getByRole('button', { name: 'Make 2 locations' })).toBeEnabled();
    // Nothing was fetched twice: the dialog uses the preview it was opened with.
    expect(FakeXhr.sent).toHaveLength(2);
  });

  it('names regions from the text inside them, matches patterns, and makes each region a location once', () => {
    const offered = offeredRegions(REGIONS, new Map([['path3677', 'H865']]));
    expect(offered.map((region) => [region.id, region.title, region.named, region.fromText])).toEqual([
      ['shop_1', 'Café Nero', true, false],
      ['shop_2', 'Shop 2', true, false],
      ['path3677', 'H865', true, true],
      ['shop_3', 'Boots', false, false],
    ]);
    expect(offered.filter((region) => matchesPattern(region, 'H8*')).map((region) => region.id)).toEqual(['path3677']);
    expect(offered.filter((region) => matchesPattern(region, 'shop_?')).map((region) => region.id)).toEqual(['shop_1', 'shop_2', 'shop_3']);
    expect(offered.filter((region) => matchesPattern(region, 'café')).map((region) => region.id)).toEqual(['shop_1']);
    // An id taken by another location gets a new one; a region linked already, or ticked twice, is made once at most.
    const doc = documentWith(() => ({ locations: [{ ...blankLocation('shop_1'), layer: 'ground' }] }));
    const made = regionLocationEdits(doc, 'ground', [...offered, offered[0]!], new Set(['shop_1', 'path3677', 'shop_3']), () => 'loc-new');
    expect(made.map((edit) => edit.type === 'LocationAdded' && [edit.location.id, edit.location.element, edit.location.title])).toEqual([
      ['loc-new', 'shop_1', 'Café Nero'],
      ['path3677', 'path3677', 'H865'],
    ]);
  });
});
