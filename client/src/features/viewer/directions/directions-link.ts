/**
 * Directions in the address: `?from={locationId}&to={locationId}` (with `&stepfree=1`) opens
 * the directions with that route; `?here={locationId}` is a kiosk standing at that location
 * (the start is fixed, a "You are here" marker shows it, and the viewer resets after a minute
 * of inactivity). Kept apart from the directions' own code: the viewer reads the address at
 * start to know whether to load that code at all.
 */
export interface DirectionsLink {
  from: string | null;
  to: string | null;
  stepFree: boolean;
  /** The kiosk's location (`?here=`), or null. */
  here: string | null;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const idOf = (value: string | null) => (value !== null && ID.test(value) ? value : null);

/** The directions an address asks for (ids not shaped like location ids are dropped). */
export function parseDirectionsLink(search: string): DirectionsLink {
  const params = new URLSearchParams(search);
  const stepFree = params.get('stepfree');
  return {
    from: idOf(params.get('from')),
    to: idOf(params.get('to')),
    stepFree: stepFree === '1' || stepFree === 'true',
    here: idOf(params.get('here')),
  };
}

/** True when the address asks the viewer to open its directions. */
export function wantsDirections(link: DirectionsLink): boolean {
  return link.from !== null || link.to !== null || link.here !== null;
}

/** `search` with the route's parameters set (or removed when null), other parameters kept. */
export function searchWithRoute(search: string, route: { from: string | null; to: string | null; stepFree: boolean } | null): string {
  const params = new URLSearchParams(search);
  for (const name of ['from', 'to', 'stepfree']) params.delete(name);
  if (route) {
    if (route.from) params.set('from', route.from);
    if (route.to) params.set('to', route.to);
    if (route.stepFree) params.set('stepfree', '1');
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The shareable address of a route on a map (`base`: the map's viewer address). */
export function routeUrl(base: string, route: { from: string; to: string; stepFree: boolean }): string {
  const url = new URL(base);
  url.search = searchWithRoute(url.search, route);
  return url.toString();
}
