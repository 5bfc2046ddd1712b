/**
 * A visually hidden button per location, in the map's reading order, for the keyboard
 * (map-renderer.tsx). Memoised with stable callbacks: the list (thousands of buttons on a large
 * map) renders only when the locations change, not on every hover.
 */
import { memo, type ReactNode } from 'react';
import type { Location } from './types';

interface LocationButtonsProps {
  locations: readonly Location[];
  /** A clustered layer's clusters and lone locations on screen instead (cluster-control.tsx). */
  children?: ReactNode;
  /** The list's accessible name ("Locations on Ground floor"). */
  label: string;
  describe: (location: Location) => string;
  onPick: (id: string, opener: HTMLElement) => void;
  onFocusChange: (id: string | null) => void;
}

export const LocationButtons = memo(function LocationButtons({ locations, label, describe, onPick, onFocusChange, children }: LocationButtonsProps) {
  return (
    <ul className="mf-a11y" aria-label={label}>
      {children}
      {locations.map((location) => (
        <li key={location.id}>
          <button
            type="button"
            data-location={location.id}
            aria-label={describe(location)}
            aria-haspopup="dialog"
            onFocus={() => onFocusChange(location.id)}
            onBlur={() => onFocusChange(null)}
            onClick={(event) => onPick(location.id, event.currentTarget)}
          />
        </li>
      ))}
    </ul>
  );
});
