/**
 * The others on the map: each tab's pointer with its person's name, and each selected location
 * outlined in its person's colour. Positions are in the layer's own coordinates, placed through
 * the map's view on every frame (outside React, as the markers are: the canvas's camera, or
 * MapLibre's projection on a street basemap), so a pointer stays on the same
 * spot of the plan at any zoom and while the map pans. Only peers on the floor shown appear.
 */
import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import type { ScreenProjection } from '../../../components/map/map-view';
import type { MapDocument, MapPoint } from '../../../components/map/types';
import { peerColor } from './peer-color';
import { peerLabel } from './people';
import { usePresencePeers } from './presence-context';
import './presence.css';

export interface PresenceOverlayProps {
  /** Where the floor's points are on screen: the view shown's (it changes when MapLibre's has loaded). */
  screen: ScreenProjection;
  document: MapDocument;
  /** The floor the map shows. */
  layerId: string;
  /** Where a location sits on the floor shown (null: not on it, or not drawn yet). */
  anchorOf: (locationId: string) => MapPoint | null;
}

/** A pin stands on its point: its head, which the ring goes round, is this far above it. */
const PIN_HEAD_PX = 20;

export function PresenceOverlay({ screen: projection, document: doc, layerId, anchorOf }: PresenceOverlayProps) {
  const { self, peers } = usePresencePeers();
  const pins = useMemo(() => new Set(doc.locations.filter((location) => location.marker === 'pin' && location.position).map((location) => location.id)), [doc.locations]);
  const rootRef = useRef<HTMLDivElement>(null);
  const anchorRef = useRef(anchorOf);
  anchorRef.current = anchorOf;

  const place = useCallback(() => {
    const root = rootRef.current;
    if (!root) return;
    for (const element of root.querySelectorAll<HTMLElement>('[data-pr-at]')) {
      const { location, x, y } = element.dataset;
      const point = location ? anchorRef.current(location) : { x: Number(x), y: Number(y) };
      if (!point) {
        element.style.visibility = 'hidden';
        continue;
      }
      const screen = projection.toScreen(point);
      element.style.visibility = '';
      // Near the right edge a name goes to the pointer's left, where it can be read.
      element.toggleAttribute('data-flip', screen.x > projection.width - 150);
      element.style.transform = `translate3d(${Math.round(screen.x * 10) / 10}px, ${Math.round(screen.y * 10) / 10}px, 0)`;
    }
    nameOnce(root);
  }, [projection]);
  useLayoutEffect(() => projection.onFrame(place), [projection, place]);
  useLayoutEffect(place);

  if (peers.length === 0) return null;
  // Several people on one location: rings one around the other, not on top of each other; one
  // person's tabs on the same location are one ring.
  const ringsAt = new Map<string, number>();
  const ringed = new Set<string>();
  return (
    <div ref={rootRef} className="pr-overlay" aria-hidden="true" data-mf-ui="">
      {peers.map((peer) => {
        const selection = peer.state.selection;
        if (!selection || ringed.has(`${peer.uid} ${selection}`)) return null;
        ringed.add(`${peer.uid} ${selection}`);
        const ring = ringsAt.get(selection) ?? 0;
        ringsAt.set(selection, ring + 1);
        const mine = peer.uid === self?.uid;
        return (
          <div key={`ring-${peer.id}`} className="pr-ring" data-pr-at="" data-location={selection} data-peer={peer.id} data-uid={peer.uid} data-mine={mine ? 'true' : undefined} style={{ ['--pr-color' as string]: peerColor(peer.uid), ['--pr-ring' as string]: ring }}>
            <span className="pr-ring__circle" style={pins.has(selection) ? { marginTop: -PIN_HEAD_PX } : undefined} />
            <span className="pr-ring__name">{peerLabel(self, peer)}</span>
          </div>
        );
      })}
      {peers.map((peer) => {
        const cursor = peer.state.cursor;
        if (!cursor || cursor.layer !== layerId) return null;
        return (
          <div key={`cursor-${peer.id}`} className="pr-cursor" data-pr-at="" data-x={cursor.x} data-y={cursor.y} data-peer={peer.id} data-uid={peer.uid} data-mine={peer.uid === self?.uid ? 'true' : undefined} style={{ ['--pr-color' as string]: peerColor(peer.uid) }}>
            <svg className="pr-cursor__arrow" width="18" height="22" viewBox="0 0 18 22" focusable="false">
              <path d="M1.5 1.5 L1.5 17.5 L5.8 13.6 L9 20.5 L12 19.1 L8.9 12.4 L14.8 12.4 Z" />
            </svg>
            <span className="pr-cursor__name">{peerLabel(self, peer)}</span>
          </div>
        );
      })}
    </div>
  );
}

/** Room kept between a pointer's name and its person's ring (CSS pixels). */
const NAME_ROOM = 4;

/**
 * A person pointing at what they selected: their pointer's name would lie on their ring's (the
 * same name twice, one over the other, as pointing at a pin to click it leaves them). The
 * pointer's name is left out while it touches its person's ring or the ring's name; the ring's
 * says who, and the pointer's comes back as it moves off.
 */
function nameOnce(root: HTMLElement): void {
  const rings = new Map<string, DOMRect[]>();
  for (const ring of root.querySelectorAll<HTMLElement>('.pr-ring')) {
    if (ring.style.visibility === 'hidden' || !ring.dataset.uid) continue;
    const parts = [...ring.querySelectorAll<HTMLElement>('.pr-ring__circle, .pr-ring__name')].map((part) => part.getBoundingClientRect());
    rings.set(ring.dataset.uid, [...(rings.get(ring.dataset.uid) ?? []), ...parts]);
  }
  for (const cursor of root.querySelectorAll<HTMLElement>('.pr-cursor')) {
    const name = cursor.querySelector<HTMLElement>('.pr-cursor__name');
    const own = cursor.dataset.uid ? rings.get(cursor.dataset.uid) : undefined;
    const box = name && own ? name.getBoundingClientRect() : null;
    cursor.toggleAttribute('data-by-ring', box !== null && own!.some((part) => overlap(box, part)));
  }
}

function overlap(a: DOMRect, b: DOMRect): boolean {
  return a.left < b.right + NAME_ROOM && b.left < a.right + NAME_ROOM && a.top < b.bottom + NAME_ROOM && b.top < a.bottom + NAME_ROOM;
}
