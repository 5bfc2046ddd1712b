/**
 * /embed.js: the embed SDK a host page loads with a plain `<script src>` (built into one
 * classic script by scripts/embed-sdk-plugin.ts, at most 6 KB gzipped). `Mapfold.embed(element,
 * {mapId})` puts the map's embed snippet (events/embed-snippet.ts) in the element, with the host
 * page's origin in the iframe's address so the map obeys it alone, and speaks the protocol of
 * events/embed-messages.ts with it: commands to the map's origin only, events from the map's
 * iframe at that origin only. The messages' types come from the protocol's zod schemas; the
 * map validates what it is sent with them, and this side (given the origin and window checks)
 * checks the marker and the type, which keeps zod out of the host page's download.
 */
import { embedSnippet } from '../../../events/embed-snippet';
import { EMBED_ORIGIN_PARAM, EMBED_PROTOCOL } from '../../../events/embed-protocol';
import type { EmbedCommandPayload, EmbedEvent, EmbedEventType } from '../../../events/embed-messages';

export interface EmbedSdkOptions {
  mapId: string;
  /** The Mapfold site's address (default: where this script was loaded from). */
  origin?: string;
  /** Open on this location. */
  location?: string;
  /** The iframe's accessible name ("Map: …"). */
  title?: string;
  /** Width divided by height of the box (default 16:10). */
  aspectRatio?: number;
}

type Listener<T extends EmbedEventType> = (event: Extract<EmbedEvent, { type: T }>) => void;

export interface EmbeddedMap {
  iframe: HTMLIFrameElement;
  openLocation(id: string): void;
  setFloor(floor: string): void;
  search(query: string): void;
  /** Listens to the map's events; answers a function that stops listening. */
  on<T extends EmbedEventType>(type: T, listener: Listener<T>): () => void;
  destroy(): void;
}

const EVENT_TYPES: readonly string[] = ['ready', 'locationOpened', 'floorChanged', 'searchPerformed'] satisfies EmbedEventType[];
const script = document.currentScript as HTMLScriptElement | null;

function embed(element: HTMLElement, options: EmbedSdkOptions): EmbeddedMap {
  const base = options.origin ?? script?.src ?? location.href;
  const origin = new URL(base).origin;
  element.innerHTML = embedSnippet({
    mapId: options.mapId,
    publicUrl: origin,
    title: options.title ?? 'Map',
    ...(options.aspectRatio ? { aspectRatio: options.aspectRatio } : {}),
    ...(options.location ? { locationId: options.location } : {}),
  });
  const iframe = element.querySelector('iframe')!;
  const src = new URL(iframe.src);
  src.searchParams.set(EMBED_ORIGIN_PARAM, location.origin);
  iframe.src = src.toString();

  const listeners = new Map<string, Set<(event: EmbedEvent) => void>>();
  // Commands wait for the map's `ready`: before it, nothing in the frame listens.
  let queue: EmbedCommandPayload[] | null = [];
  const send = (command: EmbedCommandPayload) => {
    if (queue) queue.push(command);
    else iframe.contentWindow?.postMessage({ mapfold: EMBED_PROTOCOL, ...command }, origin);
  };
  const onMessage = (event: MessageEvent) => {
    const data = event.data as Partial<EmbedEvent> | null;
    if (event.origin !== origin || event.source !== iframe.contentWindow) return;
    if (!data || data.mapfold !== EMBED_PROTOCOL || !EVENT_TYPES.includes(data.type as string)) return;
    if (data.type === 'ready' && queue) {
      const waiting = queue;
      queue = null;
      waiting.forEach(send);
    }
    listeners.get(data.type as string)?.forEach((listener) => listener(data as EmbedEvent));
  };
  window.addEventListener('message', onMessage);

  return {
    iframe,
    openLocation: (id) => send({ type: 'openLocation', id }),
    setFloor: (floor) => send({ type: 'setFloor', floor }),
    search: (query) => send({ type: 'search', query }),
    on(type, listener) {
      const set = listeners.get(type) ?? new Set();
      listeners.set(type, set);
      set.add(listener as (event: EmbedEvent) => void);
      return () => set.delete(listener as (event: EmbedEvent) => void);
    },
    destroy() {
      window.removeEventListener('message', onMessage);
      listeners.clear();
      element.innerHTML = '';
    },
  };
}

(window as { Mapfold?: { embed: typeof embed } }).Mapfold = { embed };
