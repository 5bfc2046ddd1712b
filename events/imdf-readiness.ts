/**
 * What a map still lacks for an IMDF export (Apple's Indoor Mapping Data Format, OGC 20-094;
 * events/imdf-export.ts makes the archive): the editor's Data panel shows it as a checklist,
 * and the export refuses a map that misses a must. Apart from the export so the client takes
 * the checklist without the export's code.
 */
import type { MapDocument } from './map-document.js';

export interface ImdfCheck {
  key: 'floors' | 'address' | 'units';
  /** Whether the map has it. */
  ok: boolean;
  /** Whether the export can be made without it (it then leaves the part out). */
  required: boolean;
  /** What it is, in words. */
  label: string;
  /** What is missing and where to give it; empty when ok. */
  missing: string;
}

/** The checklist: calibrated floors, the venue's address, an outline (region) per location. */
export function imdfReadiness(document: MapDocument): ImdfCheck[] {
  const uncalibrated = document.layers.filter((layer) => !layer.geo);
  const calibrated = new Set(document.layers.filter((layer) => layer.geo).map((layer) => layer.id));
  const onCalibrated = document.locations.filter((location) => calibrated.has(location.layer));
  const unlinked = onCalibrated.filter((location) => !location.element);
  return [
    {
      key: 'floors',
      ok: uncalibrated.length === 0,
      required: calibrated.size === 0,
      label: 'Calibrated floors',
      missing:
        uncalibrated.length === 0
          ? ''
          : `${uncalibrated.length} of ${document.layers.length} floor${document.layers.length === 1 ? '' : 's'} ${uncalibrated.length === 1 ? 'has' : 'have'} no latitude and longitude (${uncalibrated.slice(0, 3).map((l) => l.name).join(', ')}${uncalibrated.length > 3 ? ', …' : ''}): calibrate them in Floors.`,
    },
    {
      key: 'address',
      ok: Boolean(document.settings.address),
      required: true,
      label: 'The venue’s address',
      missing: document.settings.address ? '' : 'Give the street, town and country in Settings → Address.',
    },
    {
      key: 'units',
      ok: onCalibrated.length > 0 && unlinked.length === 0,
      required: false,
      label: 'A unit outline per shop',
      missing:
        onCalibrated.length === 0
          ? 'No location is on a calibrated floor.'
          : unlinked.length === 0
            ? ''
            : `${unlinked.length} locations stand for no region of their floor: they go out as points (amenities such as information desks and lifts), not as shops. Link each shop to its outline.`,
    },
  ];
}

/** The first must the map misses, in words, or null when an archive can be made. */
export function imdfRefusal(document: MapDocument): string | null {
  const missing = imdfReadiness(document).filter((check) => check.required && !check.ok);
  if (missing.length === 0) return null;
  return `This map cannot be exported as IMDF yet: ${missing.map((check) => check.missing).join(' ')}`;
}
