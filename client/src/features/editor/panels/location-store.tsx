/**
 * A store's details together (issue 29 item 4), as store-locator products ask for them: for a
 * place on a geographic floor (a street basemap, a calibrated plan or map) the location form
 * shows its address, phone, opening hours and website in one section, what the viewer's
 * directory and popup show a visitor looking for the nearest store.
 *
 * The address is the location's short text (where an import of a store list puts it, shown
 * under the name in the list and the popup). "Place at this address" finds it through the
 * map's geocoder, the one the viewer's "Find the nearest" asks (a street geocoder where the
 * server has one, else the embedded places: a US ZIP code or a town), and moves the location
 * there, saying how precisely; dragging it on the map corrects it.
 */
import { useState } from 'react';
import { floorToGeo, projectToFloor } from '../../../../../events/geo-calibration';
import type { Location, LocationPrecision, MapDocument } from '../../../../../events/map-document';
import { PlaceSearchAnswer, type PlaceMatch } from '../../../../../events/place-search';
import { TextField } from '../../../components/ui/field';
import { api as defaultApi, type ApiClient } from '../../../lib/api';
import { AreaField, Section, type LocationUpdate } from './location-form-fields';
import type { Draft } from './use-draft';

/** Whether the form shows a store's details: a place (not a region) on a floor that knows latitude and longitude. */
export function isStoreLocation(document: MapDocument, location: Location): boolean {
  return Boolean(document.layers.find((layer) => layer.id === location.layer)?.geo) && location.element === null;
}

/**
 * What to ask the geocoder, most precise first: the whole address (a street geocoder places
 * it), a US ZIP code after its state ("TX 75226"), then the address without its first parts
 * ("Dallas, TX 75226, US", "Paris, France").
 */
export function addressQueries(address: string): string[] {
  const text = address.replace(/\s+/g, ' ').trim();
  if (!text) return [];
  const queries = [text];
  const zip = /\b[A-Z]{2} (\d{5})(?:-\d{4})?\b/.exec(text);
  if (zip) queries.push(zip[1]!);
  const parts = text.split(',').map((part) => part.trim()).filter(Boolean);
  for (let i = 1; i < parts.length; i++) queries.push(parts.slice(i).join(', '));
  return [...new Set(queries)];
}

const PRECISION_WORDS: Partial<Record<LocationPrecision, string>> = {
  street: 'at its street address',
  postcode: 'at the middle of its postcode',
  city: 'at the middle of its town',
  region: 'at the middle of its region',
  country: 'at the middle of its country',
};

export interface LocationStoreProps {
  document: MapDocument;
  location: Location;
  mapId: string | undefined;
  update: LocationUpdate;
  address: Draft;
  phone: Draft;
  hours: Draft;
  link: Draft;
  api?: ApiClient;
}

export function LocationStore({ document, location, mapId, update, address, phone, hours, link, api = defaultApi }: LocationStoreProps) {
  const [status, setStatus] = useState<{ busy: boolean; text: string }>({ busy: false, text: '' });
  const floor = document.layers.find((layer) => layer.id === location.layer);
  const size = floor?.file ? { width: floor.file.width, height: floor.file.height } : document.settings.size;

  const place = async () => {
    const geo = floor?.geo;
    const queries = addressQueries(address.value);
    if (!geo || !mapId || queries.length === 0) {
      setStatus({ busy: false, text: 'Type the address first.' });
      return;
    }
    setStatus({ busy: true, text: 'Looking for the address…' });
    // An ambiguous town is looked for near where the store is now, or the floor's middle.
    const here = floorToGeo(geo, size, location.position ?? { x: size.width / 2, y: size.height / 2 });
    const near = here && Math.abs(here.lat) <= 90 ? `${here.lat.toFixed(4)},${(((here.lng + 540) % 360) - 180).toFixed(4)}` : null;
    let found: PlaceMatch | null = null;
    try {
      for (const q of queries) {
        const params = new URLSearchParams({ q: q.slice(0, 200), ...(near ? { near } : {}) });
        const { result } = await api.get(`/api/public/maps/${encodeURIComponent(mapId)}/places?${params}`, PlaceSearchAnswer);
        found = result.places[0] ?? null;
        if (found) break;
      }
    } catch {
      setStatus({ busy: false, text: 'The address could not be looked up. Try again, or drag the marker where the store is.' });
      return;
    }
    const point = found ? projectToFloor(geo, size, found) : null;
    if (!found || !point) {
      setStatus({ busy: false, text: 'No place was found for this address. Check it, or drag the marker where the store is.' });
      return;
    }
    const problem = update({ position: { x: Math.round(point.x * 1000) / 1000, y: Math.round(point.y * 1000) / 1000 }, precision: found.precision });
    const where = [found.name, found.region].filter(Boolean).join(', ');
    setStatus({ busy: false, text: problem ?? `Placed ${PRECISION_WORDS[found.precision] ?? 'there'} (${where}). Drag the marker to put it exactly.` });
  };

  return (
    <Section title="Store details">
      <AreaField label="Address" draft={address} placeholder="2929 Main St, Dallas, TX 75226" hint="Shown under the name in the list and the popup." />
      <div className="ep-loc-store-place">
        <button type="button" className="ep-loc-button" onClick={() => void place()} disabled={status.busy || !mapId} aria-describedby={status.text ? `${location.id}-store-status` : undefined}>
          Place at this address
        </button>
        <p id={`${location.id}-store-status`} className="ep-hint" role="status">
          {status.text}
        </p>
      </div>
      <TextField className="ep-loc-field" label="Phone" type="tel" value={phone.value} error={phone.error} onChange={phone.onChange} onFocus={phone.onFocus} onBlur={phone.onBlur} autoComplete="off" />
      <AreaField label="Opening hours" draft={hours} placeholder="Mon–Fri 9:00–18:00, Sat 10:00–16:00" hint="As visitors read it: days, then hours." />
      <TextField
        className="ep-loc-field"
        label="Website"
        type="url"
        inputMode="url"
        placeholder="https://"
        value={link.value}
        error={link.error}
        onChange={link.onChange}
        onFocus={link.onFocus}
        onBlur={link.onBlur}
        autoComplete="off"
      />
    </Section>
  );
}
