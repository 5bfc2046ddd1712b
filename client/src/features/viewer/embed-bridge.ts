/**
 * The viewer's side of the embed SDK (events/embed-messages.ts): in an iframe whose address
 * names its host page's origin (`?host=`, set by /embed.js), the map obeys that origin's
 * commands and tells it what the visitor does. Loaded by viewer.tsx only in such an iframe, once
 * the map is on screen, so no other visitor's first load carries it; the host's commands are
 * the viewer controller's (controller/viewer-controller.ts), and the bridge listens to the
 * controller to work out what changed, which keeps the viewer's own part (its first load) to a line.
 */
import { setQuery } from './controller/filter-commands';
import type { ViewerController } from './controller/viewer-controller';
import { EMBED_ORIGIN_PARAM, EMBED_PROTOCOL, EmbedCommand, hostOrigin, type EmbedEventPayload } from '../../../../events/embed-messages';

/** A search is told once the typing pauses (as the insights count it). */
const SEARCH_SETTLE_MS = 400;

/** Carries out a host page's command on the viewer. */
function perform(view: ViewerController, command: EmbedCommand) {
  const { doc } = view;
  if (command.type === 'openLocation') view.open(command.id, null, true);
  else if (command.type === 'setFloor') {
    const layer = doc.layers.find((candidate) => candidate.id === command.floor) ?? doc.layers.find((candidate) => candidate.name === command.floor);
    if (layer) view.setFloor(layer.id);
  } else setQuery(view, command.query);
}

/**
 * Connects to the host page, unless the page is not framed or its address names no usable
 * origin (nothing is posted then, and never to '*').
 */
export function connectHost(view: ViewerController): void {
  const origin = hostOrigin(new URLSearchParams(location.search).get(EMBED_ORIGIN_PARAM));
  const host = window.parent;
  if (!origin || host === window) return;
  const send = (event: EmbedEventPayload) => host.postMessage({ mapfold: EMBED_PROTOCOL, ...event }, origin);

  const onMessage = (event: MessageEvent) => {
    // Only the named origin, and only the window that frames the map: a third site's frame on
    // the same page, or a pop-up, is not the host even if it speaks the protocol.
    if (event.origin !== origin || event.source !== host) return;
    const parsed = EmbedCommand.safeParse(event.data);
    if (parsed.success) perform(view, parsed.data);
  };
  window.addEventListener('message', onMessage);

  // What the host page knows already (the address it gave opens the location it names).
  let { selectedId, query } = view.getSnapshot();
  let layerId = view.layer?.id;
  // The map's id as its page's address names it (/m/{id}): the viewer's first load passes no more than it must.
  const mapId = decodeURIComponent(/\/m\/([^/]+)/.exec(location.pathname)?.[1] ?? '');
  let told = query.trim();
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  send({ type: 'ready', mapId });
  view.subscribe(() => {
    const now = view.getSnapshot();
    if (now.selectedId !== selectedId) {
      selectedId = now.selectedId;
      const place = view.doc.locations.find((location) => location.id === selectedId);
      if (place) send({ type: 'locationOpened', id: place.id, title: place.title });
    }
    if (view.layer?.id !== layerId) {
      layerId = view.layer?.id;
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
  });
}
