/**
 * The location form's Place section: its floor, its position (placed, moved or taken off the
 * map), its entrances on the path network, latitude and longitude on a calibrated floor, the
 * drawing's region it stands for, and how close the map zooms to it.
 */
import { useEffect, useId, useState } from 'react';
import { locationFields, type Location, type LocationPrecision, type MapDocument } from '../../../../../events/map-document';
import { TextField } from '../../../components/ui/field';
import { LocationEntrances } from '../paths/location-entrances';
import { usePlaceOnMap } from '../place-on-map';
import { formatCoordinate, message, Section, SelectField, type LocationUpdate } from './location-form-fields';
import { LocationLatLng } from './location-latlng';
import { useDraft } from './use-draft';

/** How a geocoded location was placed, in words (events/map-document.ts LOCATION_PRECISIONS). */
const PRECISION_NOTES: Record<Exclude<LocationPrecision, 'exact'>, string> = {
  street: 'Placed by its street address.',
  postcode: 'Placed at the middle of its postcode, from its address.',
  city: 'Placed at the middle of its city, from its address.',
  region: 'Placed at the middle of its region, from its address.',
  country: 'Placed at the middle of its country, from its address.',
};

export interface LocationPlaceProps {
  document: MapDocument;
  location: Location;
  update: LocationUpdate;
  /** The coalescing key of one of the location's fields. */
  keyOf: (field: 'zoom' | 'element') => string;
  /** Arms a click on a path point of the map that becomes an entrance. */
  onPickEntrance?: (() => void) | undefined;
}

export function LocationPlace({ document, location, update, keyOf, onPickEntrance }: LocationPlaceProps) {
  const ids = useId();
  const key = keyOf;
  const zoom = useDraft(location.zoom === null ? '' : String(location.zoom), (text) => {
    const trimmed = text.trim();
    const value = trimmed === '' ? null : Number(trimmed.replace(',', '.'));
    if (value !== null && !Number.isFinite(value)) return 'Zoom level must be a number, like 2 or 1.5';
    const parsed = locationFields.zoom.safeParse(value);
    if (!parsed.success) return 'Zoom level must be between 0.1 and 64';
    return parsed.data === location.zoom ? null : update({ zoom: parsed.data }, key('zoom'));
  });

  const element = useDraft(location.element ?? '', (text) => {
    if (text.trim() === '') return 'Region id is required (or unlink the region)';
    const parsed = locationFields.element.safeParse(text.trim());
    if (!parsed.success) return message('Region id', parsed.error);
    if (parsed.data === location.element) return null;
    // The edit check names the field first ("changes.element: …"): the field here says which.
    return update({ element: parsed.data }, key('element'))?.replace(/^changes\.element: t/, 'T') ?? null;
  });
  const [showElement, setShowElement] = useState(location.element !== null);
  useEffect(() => {
    if (location.element !== null) setShowElement(true);
  }, [location.element]);

  const placed = location.position !== null;
  const placeOnMap = usePlaceOnMap();
  const floor = document.layers.find((layer) => layer.id === location.layer);
  const floorSize = floor?.file ? { width: floor.file.width, height: floor.file.height } : document.settings.size;

  return (
    <Section title="Place">
      <SelectField
        label="Floor"
        value={location.layer}
        options={document.layers.map((layer) => ({ value: layer.id, label: layer.name }))}
        onChange={(layer) => {
          if (layer !== location.layer) update({ layer });
        }}
        hint={document.layers.length > 1 ? 'Moves the location to that floor, at the same spot.' : undefined}
      />
      <div className="ep-loc-position">
        <span className="field__label" id={`${ids}-position`}>
          Position
        </span>
        <div className="ep-loc-position__row">
          <output className="ep-loc-position__value" aria-labelledby={`${ids}-position`}>
            {placed ? `x ${formatCoordinate(location.position!.x)}, y ${formatCoordinate(location.position!.y)}` : location.element ? 'Its region on the floor plan' : 'Not placed on the map'}
          </output>
          {placeOnMap ? (
            <button type="button" className="ep-loc-button" onClick={() => placeOnMap(location.id)}>
              {placed ? 'Move on map' : location.element ? 'Add a pin' : 'Place on map'}
            </button>
          ) : null}
          {placed ? (
            <button type="button" className="ep-loc-button" onClick={() => update({ position: null })}>
              Remove from map
            </button>
          ) : null}
        </div>
        {placed && location.precision && location.precision !== 'exact' ? (
          <p className="ep-loc-hint" role="note">
            {PRECISION_NOTES[location.precision]} Move it on the map (or type its latitude and longitude) to put it exactly where it is.
          </p>
        ) : null}
      </div>
      <LocationEntrances
        document={document}
        location={location}
        anchor={location.position}
        onChange={(entrances) => update({ entrances })}
        {...(onPickEntrance ? { onPick: onPickEntrance } : {})}
      />
      {floor?.geo && (placed || !location.element) ? (
        <LocationLatLng location={location} geo={floor.geo} size={floorSize} onMove={(position, coalesce) => update({ position }, coalesce)} />
      ) : null}
      {!showElement && floor?.file?.kind === 'svg' ? (
        <button type="button" className="ep-loc-button ep-loc-link" onClick={() => setShowElement(true)}>
          Link a region of the drawing
        </button>
      ) : null}
      {showElement ? (
        <div className="ep-loc-element">
          <TextField
            className="ep-loc-field"
            label="Region id"
            hint="The id of its shape in the floor plan (SVG)."
            value={element.value}
            error={element.error}
            onChange={element.onChange}
            onFocus={element.onFocus}
            onBlur={element.onBlur}
            spellCheck={false}
            autoComplete="off"
          />
          {location.element !== null ? (
            <button
              type="button"
              className="ep-loc-button"
              onClick={() => {
                if (update({ element: null }) === null) setShowElement(false);
              }}
            >
              Unlink region
            </button>
          ) : null}
        </div>
      ) : null}
      <TextField
        className="ep-loc-field"
        label="Zoom level"
        hint="How close the map zooms in when it is opened. Empty: the map decides."
        inputMode="decimal"
        value={zoom.value}
        error={zoom.error}
        onChange={zoom.onChange}
        onFocus={zoom.onFocus}
        onBlur={zoom.onBlur}
        autoComplete="off"
      />
    </Section>
  );
}
