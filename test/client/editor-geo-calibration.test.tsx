/**
 * Calibration in the editor's panels, by keyboard: a floor's drawing pinned at two points typed
 * (x/y and latitude/longitude) gives one LayerCalibrated that puts both places where they were
 * pinned, mistakes are said in words without an edit, a calibrated floor shows "Calibrated"
 * and can lose it; a location on a calibrated floor shows its latitude/longitude, and typing
 * one moves it there.
 */
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { floorToGeo, projectToFloor } from '../../events/geo-calibration';
import { Location, type MapDocument } from '../../events/map-document';
import { LayersPanel } from '../../client/src/features/editor/panels/layers-panel';
import { LocationForm } from '../../client/src/features/editor/panels/location-form';
import { documentWith, expectValidEdits, renderPanel } from './support/panel-harness';

const PLAN = { kind: 'image' as const, url: '/files/plan.png', width: 1000, height: 800 };

function plan(geo?: MapDocument['layers'][number]['geo']): MapDocument {
  return documentWith(() => ({
    layers: [{ id: 'ground', name: 'Campus', file: PLAN, ...(geo ? { geo } : {}) }],
    locations: [Location.parse({ id: 'library', title: 'Library', layer: 'ground', position: { x: 500, y: 400 } })],
  }));
}

describe('calibrating a floor by two typed points', () => {
  it('gives one LayerCalibrated that puts both places where they were pinned', async () => {
    const user = userEvent.setup();
    const { calls } = renderPanel((doc, onEdit) => <LayersPanel document={doc} onEdit={onEdit} currentLayerId="ground" onSelectLayer={() => {}} />, plan());
    await user.click(screen.getByRole('button', { name: 'Calibrate Campus with two known points' }));
    const pins = [
      { x: '100', y: '100', lat: '51.51', lng: '-0.14' },
      { x: '900', y: '700', lat: '51.49', lng: '-0.10' },
    ];
    for (const [i, pin] of pins.entries()) {
      await user.type(screen.getByLabelText(`Point ${i + 1}, x on the drawing`), pin.x);
      await user.type(screen.getByLabelText(`Point ${i + 1}, y on the drawing`), pin.y);
      await user.type(screen.getByLabelText(`Point ${i + 1}, latitude`), pin.lat);
      await user.type(screen.getByLabelText(`Point ${i + 1}, longitude`), pin.lng);
    }
    await user.click(screen.getByRole('button', { name: /^Calibrate$/ }));
    expect(calls).toHaveLength(1);
    const edit = calls[0]!.edits[0]!;
    expect(edit).toMatchObject({ type: 'LayerCalibrated', id: 'ground', geo: { kind: 'bounds', projection: 'mercator' } });
    expectValidEdits(calls);
    const geo = (edit as { geo: NonNullable<MapDocument['layers'][number]['geo']> }).geo;
    for (const pin of pins) {
      const at = projectToFloor(geo, PLAN, { lat: Number(pin.lat), lng: Number(pin.lng) })!;
      expect(Math.hypot(at.x - Number(pin.x), at.y - Number(pin.y))).toBeLessThan(0.01);
    }
    expect(screen.getByText('Calibrated')).toBeTruthy();
  });

  it('says what is missing or wrong, without an edit', async () => {
    const user = userEvent.setup();
    const { calls } = renderPanel((doc, onEdit) => <LayersPanel document={doc} onEdit={onEdit} currentLayerId="ground" onSelectLayer={() => {}} />, plan());
    await user.click(screen.getByRole('button', { name: 'Calibrate Campus with two known points' }));
    await user.click(screen.getByRole('button', { name: /^Calibrate$/ }));
    expect(screen.getByRole('alert').textContent).toBe('Point 1: click the drawing where it is, or type its x and y.');
    await user.type(screen.getByLabelText('Point 1, x on the drawing'), '100');
    await user.type(screen.getByLabelText('Point 1, y on the drawing'), '100');
    await user.type(screen.getByLabelText('Point 1, latitude'), '51.51');
    await user.type(screen.getByLabelText('Point 1, longitude'), '-0.14');
    await user.type(screen.getByLabelText('Point 2, x on the drawing'), '900');
    await user.type(screen.getByLabelText('Point 2, y on the drawing'), '700');
    // North down: the second point is lower on the drawing but further north.
    await user.type(screen.getByLabelText('Point 2, latitude'), '51.52');
    await user.type(screen.getByLabelText('Point 2, longitude'), '-0.10');
    await user.click(screen.getByRole('button', { name: /^Calibrate$/ }));
    expect(screen.getByRole('alert').textContent).toMatch(/other way round/);
    expect(calls).toHaveLength(0);
  });

  it('a calibrated floor says so and can lose its calibration', async () => {
    const user = userEvent.setup();
    const geo = { kind: 'bounds' as const, projection: 'mercator' as const, north: 51.52, south: 51.48, west: -0.15, east: -0.09 };
    const { calls } = renderPanel((doc, onEdit) => <LayersPanel document={doc} onEdit={onEdit} currentLayerId="ground" onSelectLayer={() => {}} />, plan(geo));
    expect(screen.getByText('Calibrated')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Remove the calibration of Campus' }));
    expect(calls[0]!.edits).toEqual([{ type: 'LayerCalibrated', id: 'ground', geo: null }]);
    expect(screen.getByRole('button', { name: 'Calibrate Campus with two known points' })).toBeTruthy();
  });
});

describe("a location's latitude and longitude", () => {
  const geo = { kind: 'bounds' as const, projection: 'mercator' as const, north: 51.52, south: 51.48, west: -0.15, east: -0.09 };

  it('a floor on the street basemap says so, and its calibration cannot be taken off (issue 29)', () => {
    const geo = { kind: 'bounds' as const, projection: 'mercator' as const, north: 40, south: 25, west: -110, east: -85 };
    const street = documentWith(() => ({ layers: [{ id: 'map', name: 'Map', file: null, geo, basemap: true }], locations: [] }));
    renderPanel((doc, onEdit) => <LayersPanel document={doc} onEdit={onEdit} currentLayerId="map" onSelectLayer={() => {}} />, street);
    expect(screen.getByText('Street map')).toBeTruthy();
    expect(screen.getByText('On a street basemap: locations sit at their latitude and longitude.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remove the calibration of Map' })).toBeNull();
    expect(screen.queryByText('Calibrated')).toBeNull();
  });

  it('shows where it is and moves it where a typed latitude puts it', async () => {
    const user = userEvent.setup();
    const document = plan(geo);
    const { calls } = renderPanel((doc, onEdit) => <LocationForm document={doc} onEdit={onEdit} location={doc.locations[0]!} onDeleted={() => {}} />, document);
    const place = floorToGeo(geo, PLAN, { x: 500, y: 400 })!;
    const latitude = screen.getByLabelText('Latitude') as HTMLInputElement;
    expect(Number(latitude.value)).toBeCloseTo(place.lat, 4);
    expect(Number((screen.getByLabelText('Longitude') as HTMLInputElement).value)).toBeCloseTo(place.lng, 4);
    await user.clear(latitude);
    await user.type(latitude, '51.51');
    const last = calls.at(-1)!.edits[0] as { type: string; changes: { position: { x: number; y: number } } };
    expect(last.type).toBe('LocationUpdated');
    const expected = projectToFloor(geo, PLAN, { lat: 51.51, lng: place.lng })!;
    expect(Math.hypot(last.changes.position.x - expected.x, last.changes.position.y - expected.y)).toBeLessThan(0.01);
    expectValidEdits(calls);
  });

  it('is not shown where the floor is not calibrated', () => {
    renderPanel((doc, onEdit) => <LocationForm document={doc} onEdit={onEdit} location={doc.locations[0]!} onDeleted={() => {}} />, plan());
    expect(screen.queryByLabelText('Latitude')).toBeNull();
  });
});
