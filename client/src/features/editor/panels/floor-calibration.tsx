/**
 * Calibrating a floor's drawing (an uploaded plan or map) by two known points: click a place
 * on the canvas (or type its x/y, for the keyboard) and type its latitude/longitude, twice;
 * events/geo-calibration.ts calibrateFromTwoPoints gives the bounds, sent as LayerCalibrated.
 * A calibrated floor shows "Calibrated" with a way to remove it; its locations then show
 * their latitude/longitude. A floor on the street basemap says so (its calibration is the
 * basemap's, and stays).
 */
import { useId, useState } from 'react';
import { calibrateFromTwoPoints, type LatLng } from '../../../../../events/geo-calibration';
import { isBasemapCalibration, type Layer, type Point } from '../../../../../events/map-document';
import type { CheckedOnEdit } from './checked-edits';

export interface FloorCalibrationProps {
  layer: Layer;
  size: { width: number; height: number };
  edit: CheckedOnEdit;
  /** Asks the canvas for a click on this floor; `done` gets the point (floor units). Absent: typing only. */
  onPickPoint?: ((done: (at: Point) => void) => void) | undefined;
}

interface PinDraft {
  x: string;
  y: string;
  lat: string;
  lng: string;
}

const EMPTY: PinDraft = { x: '', y: '', lat: '', lng: '' };
const number = (text: string) => {
  const trimmed = text.trim().replace(',', '.');
  const value = trimmed === '' ? NaN : Number(trimmed);
  return Number.isFinite(value) ? value : null;
};

/** A pin as typed, or what is missing from it in words. */
function pinOf(draft: PinDraft, n: number): { ok: true; point: Point; place: LatLng } | { ok: false; message: string } {
  const [x, y, lat, lng] = [number(draft.x), number(draft.y), number(draft.lat), number(draft.lng)];
  if (x === null || y === null) return { ok: false, message: `Point ${n}: click the drawing where it is, or type its x and y.` };
  if (lat === null || lat < -90 || lat > 90) return { ok: false, message: `Point ${n}: type its latitude, between -90 and 90.` };
  if (lng === null || lng < -180 || lng > 180) return { ok: false, message: `Point ${n}: type its longitude, between -180 and 180.` };
  return { ok: true, point: { x, y }, place: { lat, lng } };
}

export function FloorCalibration({ layer, size, edit, onPickPoint }: FloorCalibrationProps) {
  const ids = useId();
  const [open, setOpen] = useState(false);
  const [pins, setPins] = useState<[PinDraft, PinDraft]>([EMPTY, EMPTY]);
  const [picking, setPicking] = useState<0 | 1 | null>(null);
  const [error, setError] = useState<string | null>(null);

  const setPin = (index: 0 | 1, changes: Partial<PinDraft>) =>
    setPins((current) => {
      const next: [PinDraft, PinDraft] = [current[0], current[1]];
      next[index] = { ...next[index], ...changes };
      return next;
    });

  const pick = (index: 0 | 1) => {
    if (!onPickPoint) return;
    setPicking(index);
    onPickPoint((at) => {
      setPin(index, { x: String(Math.round(at.x * 10) / 10), y: String(Math.round(at.y * 10) / 10) });
      setPicking(null);
      // Back in the panel, the latitude of the point just pinned is next.
      requestAnimationFrame(() => document.getElementById(`${ids}-lat-${index}`)?.focus());
    });
  };

  const save = () => {
    const first = pinOf(pins[0], 1);
    if (!first.ok) return setError(first.message);
    const second = pinOf(pins[1], 2);
    if (!second.ok) return setError(second.message);
    const result = calibrateFromTwoPoints(size, first, second);
    if (!result.ok) return setError(result.message);
    const problem = edit([{ type: 'LayerCalibrated', id: layer.id, geo: result.geo }]);
    if (problem) return setError(`The calibration could not be saved (${problem}).`);
    setError(null);
    setOpen(false);
    setPins([EMPTY, EMPTY]);
  };

  if (layer.basemap && isBasemapCalibration(layer.geo)) {
    // Its calibration is the basemap's (Web Mercator bounds): it cannot be taken off.
    return (
      <div className="ep-calibration ep-calibration--done">
        <span className="ep-badge" title="Locations sit at their latitude and longitude on the street basemap">
          Street map
        </span>
        <span className="ep-calibration__how">On a street basemap: locations sit at their latitude and longitude.</span>
      </div>
    );
  }
  if (layer.geo) {
    return (
      <div className="ep-calibration ep-calibration--done">
        <span className="ep-badge" title="Latitude and longitude place locations on this floor">
          Calibrated
        </span>
        <span className="ep-calibration__how">{layer.geo.kind === 'd3' ? 'Drawn with a map projection' : 'Pinned at two points'}</span>
        <button type="button" className="ep-link-button" onClick={() => edit([{ type: 'LayerCalibrated', id: layer.id, geo: null }])} aria-label={`Remove the calibration of ${layer.name}`}>
          Remove calibration
        </button>
      </div>
    );
  }
  if (!layer.file) return null;
  if (!open) {
    return (
      <button type="button" className="ep-link-button" onClick={() => setOpen(true)} aria-label={`Calibrate ${layer.name} with two known points`} aria-expanded={false}>
        Calibrate…
      </button>
    );
  }
  return (
    <fieldset className="ep-calibration">
      <legend className="ep-calibration__legend">Calibrate by two points</legend>
      <p className="ep-hint">Pick two places far apart whose latitude and longitude you know (from an online map), with north up on the drawing.</p>
      {([0, 1] as const).map((index) => {
        const pin = pins[index];
        const placed = pin.x !== '' && pin.y !== '';
        return (
          <div key={index} className="ep-calibration__pin" role="group" aria-labelledby={`${ids}-pin-${index}`}>
            <div className="ep-calibration__pin-head">
              <span id={`${ids}-pin-${index}`} className="ep-calibration__pin-title">
                Point {index + 1}
              </span>
              {onPickPoint ? (
                <button type="button" className="ep-link-button" onClick={() => pick(index)} aria-pressed={picking === index}>
                  {picking === index ? 'Click the drawing…' : placed ? 'Pick again' : 'Pick on the drawing'}
                </button>
              ) : null}
            </div>
            <div className="ep-calibration__grid">
              <label className="ep-calibration__field">
                <span>x</span>
                <input className="field__input" inputMode="decimal" value={pin.x} onChange={(e) => setPin(index, { x: e.target.value })} aria-label={`Point ${index + 1}, x on the drawing`} />
              </label>
              <label className="ep-calibration__field">
                <span>y</span>
                <input className="field__input" inputMode="decimal" value={pin.y} onChange={(e) => setPin(index, { y: e.target.value })} aria-label={`Point ${index + 1}, y on the drawing`} />
              </label>
              <label className="ep-calibration__field">
                <span>Latitude</span>
                <input id={`${ids}-lat-${index}`} className="field__input" inputMode="decimal" placeholder="48.8584" value={pin.lat} onChange={(e) => setPin(index, { lat: e.target.value })} aria-label={`Point ${index + 1}, latitude`} />
              </label>
              <label className="ep-calibration__field">
                <span>Longitude</span>
                <input className="field__input" inputMode="decimal" placeholder="2.2945" value={pin.lng} onChange={(e) => setPin(index, { lng: e.target.value })} aria-label={`Point ${index + 1}, longitude`} />
              </label>
            </div>
          </div>
        );
      })}
      {error ? (
        <p className="ep-error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="ep-calibration__actions">
        <button type="button" className="ep-button" onClick={save}>
          Calibrate
        </button>
        <button
          type="button"
          className="ep-link-button"
          onClick={() => {
            setOpen(false);
            setError(null);
            setPicking(null);
          }}
        >
          Cancel
        </button>
      </div>
    </fieldset>
  );
}
