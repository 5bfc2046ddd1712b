/**
 * "Place on map" from a location's form: the editor arms a click on the map that puts the
 * location there (a pin), on its own floor. Given through context, so the form asks for it
 * without every panel between the editor and the form passing it along.
 */
import { createContext, useContext } from 'react';

/** Arms the map's next click to place (or move) the location with this id; null where the map cannot take it (a read-only editor). */
export const PlaceOnMapContext = createContext<((locationId: string) => void) | null>(null);

export const usePlaceOnMap = () => useContext(PlaceOnMapContext);
