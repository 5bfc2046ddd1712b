/**
 * The import preview's line on rows placed by their address (issue 29 item 3): how many at each
 * precision, and how many could not be placed (the problems say why).
 */
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ImportPreview } from '../../events/map-import';
import { ImportPreviewView } from '../../client/src/components/import/import-preview';

function preview(geocoding: ImportPreview['geocoding']): ImportPreview {
  return {
    format: 'csv',
    counts: { layers: 1, locations: 5, groups: 0, regionsLinked: 0, updated: 0, skipped: 0 },
    columns: { used: ['Name', 'Address', 'City', 'Zip'], ignored: [] },
    mapping: { title: 'Name', address: 'Address', city: 'City', postcode: 'Zip' },
    availableColumns: ['Name', 'Address', 'City', 'Zip'],
    problems: [{ row: 5, field: 'address', message: 'Row 5 was not placed: the city “Qwxyzville” in US is not one the built-in geocoder knows. It is imported without a position.' }],
    problemCount: 1,
    sample: [],
    floors: [{ id: 'map', name: 'Map', new: true, locations: 5, updated: 0 }],
    removedFloor: null,
    regions: [],
    replaces: false,
    revision: null,
    ...(geocoding ? { geocoding } : {}),
  };
}

const view = (geocoding: ImportPreview['geocoding']) =>
  render(<ImportPreviewView preview={preview(geocoding)} fileNames={['stores.csv']} mapping={{}} options={{}} stale={false} onColumn={() => undefined} onRegion={() => undefined} onAllRegions={() => undefined} actions={null} />);

describe('the import preview’s geocoding line', () => {
  it('counts the rows placed at each precision and those left unplaced', () => {
    const { container } = view({ placed: { street: 3, postcode: 1 }, unplaced: 1, remote: true });
    const line = container.querySelector('[data-part="geocoding"]')!;
    expect(line.textContent).toBe('Placed by address: 3 at the street address, 1 at the postcode; 1 row could not be placed (see the problems) and comes in without a position.');
    expect(screen.getByText(/Row 5 was not placed/)).toBeTruthy();
  });

  it('says the built-in geocoder placed them, and says nothing when no row needed it', () => {
    const { container, unmount } = view({ placed: { city: 10 }, unplaced: 0, remote: false });
    expect(container.querySelector('[data-part="geocoding"]')!.textContent).toBe('Placed by address (built-in geocoder: cities and postcodes): 10 in the city.');
    unmount();
    expect(view(undefined).container.querySelector('[data-part="geocoding"]')).toBeNull();
  });
});
