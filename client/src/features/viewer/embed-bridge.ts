/**
 * The viewer's side of the embed SDK (events/embed-messages.ts): in an iframe whose address
 * names its host page's origin (`?host=`, set by /embed.js), the map obeys that origin's
 * commands and tells it what the visitor does. Loaded by viewer.tsx only in such an iframe, once
 * the map is on screen, so no other visitor's first load carries it; the viewer hands it its
 * state and actions (kept current on each render) and calls sync() after each render, and the
 * bridge works out what changed, which keeps the viewer's own part (its first load) to a few lines.
 */
import type { Layer, MapDocument } from '../../components/map/types';
import { EMBED_ORIGIN_PARAM, EMBED_PROTOCOL, EmbedCommand, hostOrigin, type EmbedEventPayload } from '../../../../events/embed-messages';

/** What the viewer shows, and what it can do (viewer.tsx). */
export interface EmbedView {
  doc: MapDocument;
  selectedId: string | null;
  layer: Layer | null;
  query: string;
  open(id: string, opener: HTMLElement | null, fly: boolean): void;
  switchLayer(id: string): void;
  /** Named as the directory's prop (the same text compresses to nothing in the viewer's chunk). */
  onQuery(query: string): void;
}

/** What the viewer and its bridge share: the viewer sets `view` on each render and calls `sync` after it. */
export interface EmbedLink {
  view?: EmbedView;
  /** Tells the host page what changed since the last call (set once connected). */
  sync?: () => void;
}

/** A search is told once the typing pauses (as the insights count it). */
const SEARCH_SETTLE_MS = 400;

/** Carries out a host page's command on the viewer. */
function perform(view: EmbedView, command: EmbedCommand) {
  const { doc } = view;
  if (command.type === 'openLocation') view.open(command.id, null, true);
  else if (command.type === 'setFloor') {
    const layer = doc.layers.find((candidate) => candidate.id === command.floor) ?? doc.layers.find((candidate) => candidate.name === command.floor);
    if (layer) view.switchLayer(layer.id);
  } else view.onQuery(command.query);
}

/**
 * Connects to the host page, unless the page is not framed or its address names no usable
 * origin (nothing is posted then, and never to '*').
 */
export function connectHost(link: EmbedLink): void {
  const origin = hostOrigin(new URLSearchParams(location.search).get(EMBED_ORIGIN_PARAM));
  const host = window.parent;
  if (!origin || host === window || !link.view) return;
  const send = (event: EmbedEventPayload) => host.postMessage({ mapfold: EMBED_PROTOCOL, ...event }, origin);

  const onMessage = (event: MessageEvent) => {
    // Only the named origin, and only the window that frames the map: a third site's frame on
    // the same page, or a pop-up, is not the host even if it speaks the protocol.
    if (event.origin !== origin || event.source !== host) return;
    const parsed = EmbedCommand.safeParse(event.data);
    if (parsed.success && link.view) perform(link.view, parsed.data);
  };
  window.addEventListener('message', onMessage);

  // What the host page knows already (the address it gave opens the location it names).
  let { selectedId, query } = link.view;
  let layerId = link.view.layer?.id;
  // The map's id as its page's address names it (/m/{id}): the viewer's first load passes no more than it must.
  const mapId = decodeURIComponent(/\/m\/([^/]+)/.exec(location.pathname)?.[1] ?? '');
  let told = query.trim();
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  send({ type: 'ready', mapId });
  link.sync = () => {
    const now = link.view;
    if (!now) return;
    if (now.selectedId !== selectedId) {
      selectedId = now.selectedId;
      const place = now.doc.locations.find((location) => location.id === selectedId);
      if (place) send({ type: 'locationOpened', id: place.id, title: place.title });
    }
    if (now.layer?.id !== layerId) {
      layerId = now.layer?.id;
      if (layerId) send({ type: 'floorChanged', floor: layerId });
    }
    if (now.query !== query) {
      query = now.query;
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => {
        const settled = query.trim();
        if (settled === told) return;
        told = settled;
        send({ type: 'searchPerformed', query: settled });
      }, SEARCH_SETTLE_MS);
    }
  };
}
