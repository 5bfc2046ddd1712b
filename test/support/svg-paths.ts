/**
 * Point-in-path for the SVGs the server draws with d3-geo's geoPath (absolute `M x,y L x,y … Z`
 * only): the tests check that a projected place falls inside the drawn region, even-odd like
 * the browser's fill, without a browser.
 */
export type Ring = [number, number][];

/** The rings of a path's `d` (d3-geo's output: M, L and Z commands with absolute coordinates). */
export function ringsOf(d: string): Ring[] {
  const rings: Ring[] = [];
  for (const part of d.split('M').filter(Boolean)) {
    const ring: Ring = [];
    for (const pair of part.replace(/Z/g, '').split('L')) {
      const [x, y] = pair.split(',').map(Number);
      if (Number.isFinite(x) && Number.isFinite(y)) ring.push([x!, y!]);
    }
    if (ring.length > 2) rings.push(ring);
  }
  return rings;
}

/** Whether the point is inside the rings, even-odd (holes and islands as the fill draws them). */
export function insideRings(rings: Ring[], [x, y]: [number, number]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [xi, yi] = ring[i]!;
      const [xj, yj] = ring[j]!;
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/** The `d` of the path with this id in an SVG drawn by the server (`<path id="…" … d="…"/>`). */
export function pathD(svg: string, id: string): string | null {
  const match = new RegExp(`<path id="${id.replace(/[^\w-]/g, '')}"[^>]*? d="([^"]*)"`).exec(svg);
  return match ? match[1]! : null;
}

/** The smallest distance from the point to the rings' edges, in the drawing's units. */
export function distanceToRings(rings: Ring[], [x, y]: [number, number]): number {
  let best = Infinity;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [x1, y1] = ring[j]!;
      const [x2, y2] = ring[i]!;
      const dx = x2 - x1;
      const dy = y2 - y1;
      const t = dx || dy ? Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy))) : 0;
      best = Math.min(best, Math.hypot(x - (x1 + t * dx), y - (y1 + t * dy)));
    }
  }
  return best;
}
