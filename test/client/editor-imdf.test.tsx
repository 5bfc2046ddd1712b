/**
 * IMDF in the editor (issue 28, item 5): the Data panel's checklist of what a map lacks for
 * Apple Maps (calibrated floors, the venue's address, an outline per shop) and its download
 * once nothing required is missing; the settings panel's address form, which gives the whole
 * settings with the address, checked by the document's schema.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { emptyMapDocument, type MapDocument } from '../../events/map-document';
import { ImportExportPanel } from '../../client/src/features/editor/panels/import-export-panel';
import { SettingsPanel } from '../../client/src/features/editor/panels/settings-panel';
import { demoMallDocument } from '../../server/seed/demo-mall';
import { renderPanel } from './support/panel-harness';

function renderData(document: MapDocument, canDownload = true) {
  render(
    <ImportExportPanel
      document={document}
      onEdit={() => {
        throw new Error('no edits from the data panel');
      }}
      mapId="mall"
      title="Riverside Mall"
      canDownload={canDownload}
      canImport={false}
    />,
  );
  return within(screen.getByRole('region', { name: 'IMDF (Apple Maps)' }));
}

describe('IMDF in the Data panel', () => {
  it('lists what a plain floor plan lacks and offers no download yet', () => {
    const section = renderData(emptyMapDocument());
    const items = within(section.getByRole('list', { name: 'What IMDF needs' })).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^✕Calibrated floors: missing1 of 1 floor has no latitude and longitude \(Ground floor\): calibrate them in Floors\.$/),
      expect.stringMatching(/^✕The venue’s address: missingGive the street, town and country in Settings → Address\.$/),
      expect.stringMatching(/^!A unit outline per shop: partlyNo location is on a calibrated floor\.$/),
    ]);
    expect(section.getByRole('button', { name: 'Download IMDF (Apple Maps)' })).toBeDisabled();
  });

  it('offers the demo mall’s archive, every check done', () => {
    const section = renderData(demoMallDocument());
    expect(section.getAllByText(/: done$/)).toHaveLength(2);
    // The demo's services (information desk, lifts) are points: shops outline, services stand.
    expect(section.getByText(/8 locations stand for no region/)).toBeInTheDocument();
    expect(section.getByRole('link', { name: 'Download IMDF (Apple Maps)' })).toHaveAttribute('href', '/api/maps/mall/export.imdf.zip');
  });

  it('asks a visitor exploring in the tab to keep a copy first', () => {
    const section = renderData(demoMallDocument(), false);
    expect(section.getByRole('button', { name: 'Download IMDF (Apple Maps)' })).toBeDisabled();
    expect(section.getByText(/make a copy of this map/)).toBeInTheDocument();
  });
});

describe('the venue address in Settings', () => {
  it('saves the address with the whole settings, upper-casing the codes, and refuses a country that is not a code', async () => {
    const user = userEvent.setup();
    const { calls } = renderPanel((doc, onEdit) => <SettingsPanel document={doc} onEdit={onEdit} />, emptyMapDocument());
    await user.type(screen.getByRole('textbox', { name: 'Street and number' }), '1 Harbour Walk');
    await user.type(screen.getByRole('textbox', { name: 'Town or city' }), 'Bristol');
    await user.type(screen.getByRole('textbox', { name: 'Country code' }), 'England');
    await user.click(screen.getByRole('button', { name: 'Save address' }));
    expect(calls).toEqual([]);
    expect(screen.getByRole('textbox', { name: 'Country code' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(/Country code: must be a two-letter country code like US/)).toBeInTheDocument();
    await user.clear(screen.getByRole('textbox', { name: 'Country code' }));
    await user.type(screen.getByRole('textbox', { name: 'Country code' }), 'gb');
    await user.type(screen.getByRole('textbox', { name: 'Postal code (optional)' }), 'BS1 4RN');
    await user.click(screen.getByRole('button', { name: 'Save address' }));
    expect(calls.map((call) => call.edits)).toEqual([
      [{ type: 'SettingsChanged', settings: { ...emptyMapDocument().settings, address: { address: '1 Harbour Walk', locality: 'Bristol', province: null, country: 'GB', postalCode: 'BS1 4RN' } } }],
    ]);
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(calls.at(-1)!.edits).toEqual([{ type: 'SettingsChanged', settings: emptyMapDocument().settings }]);
  });
});
