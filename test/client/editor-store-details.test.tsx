/**
 * A store's details in the editor (issue 29 item 4): a place on a geographic floor is a
 * store's, its form leads with address, phone, opening hours and website together, and
 * "Place at this address" moves it where the map's geocoder finds the address.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { floorToGeo } from '../../events/geo-calibration';
import type { MapDocument } from '../../events/map-document';
import { addressQueries } from '../../client/src/features/editor/panels/location-store';
import { documentForStreetMap, streetMapArea } from '../../client/src/features/new-map/starting-points';
import { expectValidEdits, location, renderPanel, updated } from './support/editor-panel-harness';

afterEach(() => vi.unstubAllGlobals());

function storeMap(): MapDocument {
  const document = documentForStreetMap(streetMapArea('America/Chicago'));
  document.locations = [location({ id: 'main-st', title: 'Main St', layer: 'map', position: { x: 600, y: 400 }, about: '', phone: '', hours: '' })];
  return document;
}

/** The places endpoint answering each query with `answer(q)`. */
function stubPlaces(answer: (q: string) => unknown[]) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      expect(url.pathname).toBe('/api/public/maps/m1/places');
      const q = url.searchParams.get('q')!;
      asked.push(q);
      return new Response(JSON.stringify({ result: { places: answer(q) } }), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
  return asked;
}

describe('a store’s details', () => {
  it('shows address, phone, opening hours and website together for a place on a geographic floor; a floor plan keeps its Contact section', async () => {
    const user = userEvent.setup();
    const panel = renderPanel({ document: storeMap(), selectedId: 'main-st', currentLayerId: 'map', mapId: 'm1' });
    expect(screen.getByText('Store')).toBeInTheDocument();
    const section = screen.getByRole('heading', { name: 'Store details' }).closest('section')!;
    const labels = Array.from(section.querySelectorAll('label')).map((label) => label.textContent);
    expect(labels).toEqual(['Address', 'Phone', 'Opening hours', 'Website']);
    expect(screen.queryByLabelText('Short text')).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Contact' })).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Address'), '2929 Main St, Dallas, TX 75226');
    await user.type(screen.getByLabelText('Website'), 'https://example.com/dallas');
    const edits = panel.edits().flat();
    expect(edits.at(-1)).toEqual(updated('main-st', { link: 'https://example.com/dallas' }));
    expect(edits).toContainEqual(updated('main-st', { about: '2929 Main St, Dallas, TX 75226' }));
    expectValidEdits(panel.calls);
  });

  it('a floor plan’s location keeps the usual form', () => {
    renderPanel({ selectedId: 'cafe' });
    expect(screen.queryByRole('heading', { name: 'Store details' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Contact' })).toBeInTheDocument();
    expect(screen.getByLabelText('Short text')).toBeInTheDocument();
  });

  it('places the store at its address through the map’s geocoder, most precise first, and says how precisely', async () => {
    const user = userEvent.setup();
    const document = storeMap();
    document.locations[0]!.about = '2929 Main St, Dallas, TX 75226';
    const asked = stubPlaces((q) => (q === '75226' ? [{ name: '75226', region: null, country: 'US', lat: 32.7887, lng: -96.7676, precision: 'postcode' }] : []));
    const panel = renderPanel({ document, selectedId: 'main-st', currentLayerId: 'map', mapId: 'm1' });
    await user.click(screen.getByRole('button', { name: 'Place at this address' }));
    expect(await screen.findByText('Placed at the middle of its postcode (75226). Drag the marker to put it exactly.')).toHaveAttribute('role', 'status');
    expect(asked).toEqual(['2929 Main St, Dallas, TX 75226', '75226']);
    const [edit] = panel.edits().flat() as Array<{ changes: { position: { x: number; y: number }; precision: string } }>;
    expect(edit!.changes.precision).toBe('postcode');
    const placed = floorToGeo(document.layers[0]!.geo!, document.settings.size, edit!.changes.position)!;
    expect(placed.lat).toBeCloseTo(32.7887, 3);
    expect(placed.lng).toBeCloseTo(-96.7676, 3);
    expectValidEdits(panel.calls);
  });

  it('says when nothing was found, and changes nothing', async () => {
    const user = userEvent.setup();
    const document = storeMap();
    document.locations[0]!.about = 'Nowhere Lane';
    stubPlaces(() => []);
    const panel = renderPanel({ document, selectedId: 'main-st', currentLayerId: 'map', mapId: 'm1' });
    await user.click(screen.getByRole('button', { name: 'Place at this address' }));
    expect(await screen.findByText(/^No place was found for this address\./)).toHaveAttribute('role', 'status');
    expect(panel.calls).toEqual([]);
  });

  it('asks the whole address, a US ZIP code after its state, then the address without its first parts', () => {
    expect(addressQueries('2929 Main St, Dallas, TX 75226, US')).toEqual(['2929 Main St, Dallas, TX 75226, US', '75226', 'Dallas, TX 75226, US', 'TX 75226, US', 'US']);
    expect(addressQueries('3 Rue de Rivoli, 75001 Paris, France')).toEqual(['3 Rue de Rivoli, 75001 Paris, France', '75001 Paris, France', 'France']);
    expect(addressQueries('  ')).toEqual([]);
  });
});
