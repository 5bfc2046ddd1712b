/**
 * The public map viewer: the map (through the reusable {@link MapRenderer}), the directory
 * with search and group filters, the legend, zoom and fullscreen controls, the minimap, the
 * layer switcher, a tooltip on hover, the details popup, deep links and the share menu.
 * Which parts show follows the document's `settings.features`; colours follow its theme.
 */
import { lazy, memo, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { Camera } from '../../components/map/camera';
import type { GestureHint } from '../../components/map/gestures';
import { MapRenderer, preloadStaticMap, type MapRendererHandle } from '../../components/map/map-renderer';
import type { Location, MapDocument } from '../../components/map/types';
import { loadPurifier } from '../../lib/purifier';
import { clearLocation, locationFromUrl, pushLocation } from './deep-link';
import type { DirectoryProps } from './directory';
import type { MinimapProps } from './minimap';
import type { LegendProps } from './legend';
import { Icon } from './icons';
import { lazyPart } from '../../lib/lazy-part';
import { directionsAllowed } from '../../../../events/wayfinding/directions-allowed';
import { useDirections } from './directions/use-directions';
import { recordInsight } from './insights';
import { useSearchInsight } from './use-search-insight';
import type { EmbedLink } from './embed-bridge';
import { useTranslator } from '../../i18n/i18n-context';
import './viewer.css';

// Loaded when the share button is first pressed: most visitors never open it.
const ShareMenu = lazy(() => import('./share-menu').then((module) => ({ default: module.ShareMenu })));
// A location's details: fetched in idle time once the map is on screen (and at once if a
// location is opened before that), so the first load carries only what draws the map.
const loadPopup = () => import('./popup');
const Popup = lazy(() => loadPopup().then((module) => ({ default: module.Popup })));
/**
 * The directory and the minimap: drawn by the server, hydrated when their code arrives, just
 * after the map's (lib/lazy-part.ts). Behind memo, so a render of the viewer before then does not
 * reach their boundaries (an update there would swap the server's markup for the fallback).
 */
const directoryPart = lazyPart(() => import('./hydrated-later').then((module) => module.Directory));
const minimapPart = lazyPart(() => import('./hydrated-later').then((module) => module.Minimap));
const legendPart = lazyPart(() => import('./hydrated-later').then((module) => module.Legend));
const LazyDirectory = memo(function LazyDirectory(props: DirectoryProps) {
  return (
    <Suspense fallback={null}>
      <directoryPart.Part {...props} />
    </Suspense>
  );
});
const LazyMinimap = memo(function LazyMinimap(props: MinimapProps) {
  return (
    <Suspense fallback={null}>
      <minimapPart.Part {...props} />
    </Suspense>
  );
});
const LazyLegend = memo(function LazyLegend(props: LegendProps) {
  return (
    <Suspense fallback={null}>
      <legendPart.Part {...props} />
    </Suspense>
  );
});

/** Loads the parts that hydrate later; the server renderer awaits it before rendering. */
export function preloadViewerParts(): Promise<unknown> {
  return Promise.all([directoryPart.preload(), minimapPart.preload(), legendPart.preload(), preloadStaticMap()]);
}

/**
 * The search (utils/location-search.ts), fetched in idle time with the popup's code: only a
 * visitor who types or picks a filter needs it, in the directory, which hydrates after the map.
 */
type SearchCode = typeof import('../../utils/location-search');
let searchCode: SearchCode | null = null;
const loadSearch = () => import('../../utils/location-search').then((code) => (searchCode = code));

/** The hover tooltip, on the first hover (tooltip.tsx). */
const Tooltip = lazy(() => import('./tooltip').then((module) => ({ default: module.Tooltip })));

/** What `GET /api/public/maps/:id` answers. */
export interface PublicMap {
  id: string;
  title: string;
  state: number;
  data: MapDocument;
  revision: string;
  /** A test map: only its owner and admins see it. */
  test: boolean;
}

export interface ViewerProps {
  map: PublicMap;
  /** Embedded in another page: the page keeps its scrolling (wheel zoom needs focus or Ctrl). */
  cooperative?: boolean;
  /** The site's public address, for the share link and the embed code. */
  publicUrl?: string;
  /** The map is on screen for the first time. */
  onReady?: () => void;
  /**
   * Hydrating the page the server rendered (client/src/viewer-server.tsx): the first render
   * must be the server's, which knew neither the screen nor the address (a deep link, a
   * phone's layout and the legend follow right after).
   */
  serverRendered?: boolean;
  /**
   * The visitor is an admin: directions show on any map with a network. Only the main app
   * passes it (its /m/:id page and the editor's preview, where the session is loaded anyway);
   * the standalone viewer page never asks who is calling, so /m/{id} and the public map API
   * stay the same for everyone and cacheable by CDNs (events/wayfinding/directions-allowed.ts).
   */
  admin?: boolean;
  /**
   * The shown locations' indices in the directory's order, as the server sorted them for the
   * page (events/directory-order.ts): a hint that makes the viewer's own sort one pass.
   */
  directoryOrder?: readonly number[] | undefined;
}

/** How far above its anchor a popup or tooltip sits, by marker type. */
const MARKER_HEIGHT: Record<Location['marker'], number> = { pin: 40, circle: 18, dot: 12, thumbnail: 28, label: 18, hidden: 8 };
const NARROW = '(max-width: 720px)';
/** Room the route keeps clear of the controls over the map (the phone's top bar and floor prompt). */
const WIDE_ROUTE_INSETS = { top: 96, right: 88, bottom: 120, left: 72 };
const NARROW_ROUTE_INSETS = { top: 128, right: 60, bottom: 96, left: 28 };
/** The same right to left, where the controls sit on the other side (viewer.css, logical properties). */
const mirrored = (insets: typeof WIDE_ROUTE_INSETS) => ({ ...insets, right: insets.left, left: insets.right });
const RTL_WIDE_ROUTE_INSETS = mirrored(WIDE_ROUTE_INSETS);
const RTL_NARROW_ROUTE_INSETS = mirrored(NARROW_ROUTE_INSETS);

function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (typeof matchMedia !== 'function') return () => {};
      const list = matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => typeof matchMedia === 'function' && matchMedia(query).matches,
    () => false,
  );
}

const noSubscription = () => () => {};
/** A fact of the browser that the server cannot know: false on the server and while hydrating. */
function useBrowserFact(read: () => boolean): boolean {
  return useSyncExternalStore(noSubscription, read, () => false);
}
const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const fullscreenEnabled = () => document.fullscreenEnabled;

export function Viewer({ map, cooperative = false, publicUrl = typeof window === 'undefined' ? '' : window.location.origin, onReady, serverRendered = false, admin = false, directoryOrder }: ViewerProps) {
  const { t, dir } = useTranslator();
  const doc = map.data;
  const { features, theme } = doc.settings;
  const deepLinks = features.deepLinks;
  const camera = useMemo(() => new Camera(), []);
  useEffect(() => () => camera.dispose(), [camera]);
  const rendererRef = useRef<MapRendererHandle>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const shareToggleRef = useRef<HTMLButtonElement>(null);
  const listToggleRef = useRef<HTMLButtonElement>(null);
  const sheetRef = useRef<HTMLDivElement>(null);
  const narrow = useMediaQuery(NARROW);
  const medium = useMediaQuery('(max-width: 1024px), (max-height: 560px)');

  const groupsById = useMemo(() => new Map(doc.groups.map((group) => [group.id, group])), [doc.groups]);
  const groupColors = useMemo(() => new Map(doc.groups.map((group) => [group.id, group.color])), [doc.groups]);
  const shown = useMemo(() => doc.locations.filter((location) => !location.hidden), [doc.locations]);
  const byId = useMemo(() => new Map(shown.map((location) => [location.id, location])), [shown]);
  const layerNames = useMemo(() => (doc.layers.length > 1 ? new Map(doc.layers.map((layer) => [layer.id, layer.name])) : null), [doc.layers]);

  const [selectedId, setSelectedId] = useState<string | null>(() => {
    const id = deepLinks && !serverRendered ? locationFromUrl() : null;
    return id && byId.has(id) ? id : null;
  });
  const [layerId, setLayerId] = useState<string | null>(() => {
    const selected = selectedId ? byId.get(selectedId) : undefined;
    return selected?.layer ?? doc.settings.defaultLayer ?? doc.layers[0]?.id ?? null;
  });
  const layer = doc.layers.find((candidate) => candidate.id === layerId) ?? doc.layers[0] ?? null;
  const [query, setQuery] = useState('');
  // The directions' sheet on a phone, folded down to its summary so the map has the room.
  const [directionsFolded, setDirectionsFolded] = useState(false);
  const [activeGroups, setActiveGroups] = useState<ReadonlySet<string>>(() => new Set());
  const [hoveredId, setHoveredId] = useState<string | null>(null);
  const [sheetOpen, setSheetOpen] = useState(false);
  const [shareOpen, setShareOpen] = useState(false);
  const [toast, setToast] = useState<string | null>(null);
  const [hint, setHint] = useState<GestureHint | null>(null);
  const [fullscreen, setFullscreen] = useState(false);
  const [zoomLimits, setZoomLimits] = useState({ canIn: true, canOut: false });

  const directionsOffered = useMemo(() => directionsAllowed({ state: map.state, paths: doc.paths, admin }), [map.state, doc.paths, admin]);
  const isPlace = useCallback((id: string) => byId.has(id), [byId]);
  const directionsToggleRef = useRef<HTMLButtonElement>(null);
  const onKioskReset = useCallback(
    (here: string) => {
      setSelectedId(null);
      setShareOpen(false);
      setSheetOpen(false);
      const place = byId.get(here);
      if (place) setLayerId(place.layer);
      camera.reset(false);
    },
    [byId, camera],
  );
  const directions = useDirections({ allowed: directionsOffered, onKioskReset });
  const { state: route, code: directionsCode } = directions;
  const routeResult = useMemo(
    () => (directionsCode && route.open && route.from && route.to && route.from !== route.to ? directionsCode.routeBetween(doc, route.from, route.to, route.stepFree) : null),
    [directionsCode, route.open, route.from, route.to, route.stepFree, doc],
  );
  const shownRoute = routeResult?.ok ? routeResult.route : null;
  const routeLayers = useMemo(() => new Set(shownRoute?.legs.map((leg) => leg.layer) ?? []), [shownRoute]);
  // The From and To places' markers, fitted into view with the route (route-overlay.tsx).
  const routeEnds = useMemo(
    () =>
      [shownRoute?.from.location, shownRoute?.to.location].flatMap((id) => {
        const place = id ? byId.get(id) : undefined;
        return place?.position ? [{ layer: place.layer, at: place.position }] : [];
      }),
    [shownRoute, byId],
  );
  // Closing the directions gives the focus back to their button (shown again once closed).
  const focusDirectionsToggle = useRef(false);
  useEffect(() => {
    if (route.open || !focusDirectionsToggle.current) return;
    focusDirectionsToggle.current = false;
    (directionsToggleRef.current ?? rendererRef.current)?.focus();
  }, [route.open]);
  // A route shows its first floor when it is found.
  useEffect(() => {
    const first = shownRoute?.legs[0]?.layer;
    if (first) setLayerId(first);
  }, [shownRoute]);
  const onRouteFloor = useCallback(
    (id: string, step: number) => {
      setLayerId(id);
      directions.setStep(step);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [directions.setStep],
  );

  // Where the focus goes when the popup closes, and a fly-to waiting for its layer.
  const returnFocus = useRef<HTMLElement | null>(null);
  const focusOnClose = useRef(false);
  const flyPending = useRef<{ id: string; animate: boolean } | null>(selectedId ? { id: selectedId, animate: false } : null);
  const live = useRef({ selectedId, byId, narrow, layerId: layer?.id ?? null });
  live.current = { selectedId, byId, narrow, layerId: layer?.id ?? null };

  // Filters apply once the search's code is in (at once, most often: it is fetched in idle time).
  const [search, setSearch] = useState<SearchCode | null>(searchCode);
  const filtering = query.trim() !== '' || activeGroups.size > 0;
  useEffect(() => {
    if (filtering && !search) void loadSearch().then(setSearch, () => undefined);
  }, [filtering, search]);
  const foldedQuery = search ? search.fold(query.trim()) : '';
  // What the search and filters let through (the directory lists it in its own order).
  const matching = useMemo(() => {
    if (!filtering) return null;
    const through = shown.filter(
      (location) =>
        (activeGroups.size === 0 || location.groups.some((group) => activeGroups.has(group))) &&
        (foldedQuery === '' || (search !== null && search.matchesFolded(search.searchTextOf(location, groupsById), foldedQuery))),
    );
    return new Set(through.map((location) => location.id));
  }, [shown, filtering, activeGroups, foldedQuery, groupsById, search]);
  // Insights (issue 19): settled searches, and whether the text alone matched any location
  // (asked 1.2 s after the typing, when the search's code, asked for at the first key, is in).
  useSearchInsight(query, (text) => {
    const code = searchCode;
    if (!code) return false;
    const folded = code.fold(text);
    return shown.some((location) => code.matchesFolded(code.searchTextOf(location, groupsById), folded));
  });
  // Insights: every location opened, however (a marker, the directory, a link to it).
  useEffect(() => {
    if (selectedId) recordInsight('open', selectedId);
  }, [selectedId]);
  // Insights: directions asked, by destination, once a route has both ends (each new pair once).
  const routeAsked = directions.state.open && directions.state.from && directions.state.to ? directions.state.to : null;
  const routeFrom = routeAsked ? directions.state.from : null;
  useEffect(() => {
    if (routeAsked) recordInsight('directions', routeAsked);
  }, [routeAsked, routeFrom]);
  const visibleIds = useMemo(() => (matching && selectedId && !matching.has(selectedId) ? new Set([...matching, selectedId]) : matching), [matching, selectedId]);

  const describe = useCallback(
    (location: Location) => {
      const groups = location.groups.map((id) => groupsById.get(id)?.name).filter(Boolean);
      return [location.title, ...groups].join(t('viewer.comma'));
    },
    [groupsById, t],
  );

  /** The layer whose drawing is in (onLayerReady): until then a region's size is unknown. */
  const drawnLayer = useRef<string | null>(null);
  /** Moves the view to a location waiting to be shown, once its layer can tell where it is. */
  const flyToPending = useCallback(() => {
    const pending = flyPending.current;
    if (!pending) return;
    const location = live.current.byId.get(pending.id);
    if (!location) {
      flyPending.current = null;
      return;
    }
    const anchor = rendererRef.current?.anchorOf(pending.id);
    if (!anchor) return; // the layer's drawing is still loading: onLayerReady tries again
    flyPending.current = null;
    // In a clustered layer, deep enough for the location to stand alone, out of its cluster.
    const reveal = rendererRef.current?.revealZoom(pending.id) ?? 0;
    // A small region (a district on a country's map, a kiosk in a mall) deep enough to be seen:
    // its longer side a sixth of the view's shorter one, within the map's zoom limit.
    const extent = rendererRef.current?.extentOf(pending.id);
    // A region's own position is known before its drawing: wait for the drawing to know its size.
    if (location.element && !extent && drawnLayer.current !== location.layer) {
      flyPending.current = pending;
      return;
    }
    const longest = extent ? Math.max(extent.width, extent.height) : 0;
    const legible = longest > 0 ? Math.min(doc.settings.maxZoom, Math.min(camera.width, camera.height) / 6 / (longest * camera.fit)) : 0;
    const zoom = location.zoom ?? Math.max(camera.zoom, Math.min(doc.settings.maxZoom, 2), reveal, legible);
    // On a phone the details cover the lower part: the location goes to the middle of the rest.
    camera.centerOn(anchor, zoom, pending.animate, live.current.narrow ? -camera.height * 0.22 : 0);
  }, [camera, doc.settings.maxZoom]);

  useEffect(() => {
    flyToPending();
  }, [selectedId, layer?.id, flyToPending]);

  const open = useCallback(
    (id: string, opener: HTMLElement | null, fly: boolean) => {
      const location = byId.get(id);
      if (!location) return;
      returnFocus.current = opener;
      setLayerId(location.layer);
      setSelectedId(id);
      setShareOpen(false);
      setSheetOpen(false);
      if (deepLinks) pushLocation(id);
      flyPending.current = fly ? { id, animate: true } : null;
    },
    [byId, deepLinks],
  );

  const close = useCallback(() => {
    if (!live.current.selectedId) return;
    focusOnClose.current = true;
    // Going back in history closes it through popstate; otherwise close it here.
    if (!(deepLinks && clearLocation())) setSelectedId(null);
  }, [deepLinks]);

  // After the popup closes, the focus returns to what opened it (or to the map).
  useEffect(() => {
    if (selectedId !== null || !focusOnClose.current) return;
    focusOnClose.current = false;
    const target = returnFocus.current;
    returnFocus.current = null;
    if (target?.isConnected) target.focus({ preventScroll: true });
    else rendererRef.current?.focus();
  }, [selectedId]);

  // The server's page opens with nothing selected: the location the address names opens now.
  useEffect(() => {
    if (!serverRendered || !deepLinks) return;
    const id = locationFromUrl();
    const location = id ? live.current.byId.get(id) : undefined;
    if (!location) return;
    setLayerId(location.layer);
    setSelectedId(location.id);
    flyPending.current = { id: location.id, animate: false };
  }, [serverRendered, deepLinks]);

  // The browser's back and forward buttons open and close locations.
  useEffect(() => {
    if (!deepLinks) return;
    const onPopState = () => {
      const id = locationFromUrl();
      const next = id && live.current.byId.has(id) ? id : null;
      const popupHasFocus = rootRef.current?.querySelector('.mf-popup')?.contains(document.activeElement) ?? false;
      if (next === null && live.current.selectedId !== null && popupHasFocus) focusOnClose.current = true;
      if (next) {
        setLayerId(live.current.byId.get(next)!.layer);
        flyPending.current = { id: next, animate: true };
      }
      setSelectedId(next);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [deepLinks]);

  const switchLayer = (id: string) => {
    if (id === layer?.id) return;
    const selected = selectedId ? byId.get(selectedId) : undefined;
    if (selected && selected.layer !== id) {
      returnFocus.current = null;
      if (!(deepLinks && clearLocation())) setSelectedId(null);
    }
    setLayerId(id);
  };

  // The zoom buttons know when a limit is reached.
  useEffect(
    () =>
      camera.onFrame(() => {
        const canIn = camera.canZoomIn;
        const canOut = camera.canZoomOut;
        setZoomLimits((before) => (before.canIn === canIn && before.canOut === canOut ? before : { canIn, canOut }));
      }),
    [camera],
  );

  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === rootRef.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  // The directory sheet takes the focus when it opens (the close button and search follow).
  useEffect(() => {
    if (sheetOpen) sheetRef.current?.focus({ preventScroll: true });
  }, [sheetOpen]);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), 2600);
    return () => clearTimeout(timer);
  }, [toast]);

  useEffect(() => {
    if (!hint) return;
    const timer = setTimeout(() => setHint(null), 1600);
    return () => clearTimeout(timer);
  }, [hint]);

  // The embed SDK (/embed.js on the host page): its bridge (embed-bridge.ts) is loaded only in
  // an iframe whose address names the host's origin, once the map is on screen. It lives as
  // long as the page (the viewer is the page's whole content), so it is never stopped.
  const embed = useRef<EmbedLink>({});
  embed.current.view = { doc, selectedId, layer, query, onQuery: setQuery, open, switchLayer };
  useEffect(() => embed.current.sync?.());

  const readyOnce = useRef(false);
  // A layer's drawing is in: regions can say where they are (anchors for the popup, fly-to).
  const [, setLayerReadyCount] = useState(0);
  const onLayerReady = useCallback(() => {
    drawnLayer.current = live.current.layerId;
    setLayerReadyCount((count) => count + 1);
    flyToPending();
    if (readyOnce.current) return;
    readyOnce.current = true;
    onReady?.();
    if (location.search.includes('host=')) {
      void import('./embed-bridge').then((code) => code.connectHost(embed.current));
    }
    // The details popup, and DOMPurify for descriptions: fetched while the visitor looks around.
    const idle = (window as { requestIdleCallback?: (callback: () => void) => void }).requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 300));
    idle(() => {
      void loadPopup();
      void loadSearch().catch(() => undefined);
      if (doc.locations.some((location) => location.description)) void loadPurifier();
    });
  }, [flyToPending, onReady, doc.locations]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape') return;
    if (shareOpen) {
      setShareOpen(false);
      shareToggleRef.current?.focus();
    } else if (selectedId) close();
    else if (sheetOpen) {
      setSheetOpen(false);
      listToggleRef.current?.focus();
    } else if (route.open && !directions.here) {
      focusDirectionsToggle.current = true;
      directions.close();
    } else return;
    event.preventDefault();
    event.stopPropagation();
  };

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void rootRef.current?.requestFullscreen?.();
  };

  const selected = selectedId ? byId.get(selectedId) ?? null : null;
  const hovered = hoveredId && hoveredId !== selectedId ? byId.get(hoveredId) ?? null : null;
  // Kept by value: the legend hydrates later, and a new array would reach its boundary before then.
  const legendGroups = useMemo(() => doc.groups.filter((group) => group.legend), [doc.groups]);
  const canFullscreen = useBrowserFact(fullscreenEnabled) && features.fullscreen;
  const mac = useBrowserFact(isMac);
  const width = layer?.file?.width ?? doc.settings.size.width;
  const height = layer?.file?.height ?? doc.settings.size.height;
  const showSidebar = features.sidebar;
  // The legend starts open unless the sidebar's filter chips show the groups' colours already
  // (or the screen is small, legend.tsx); it is a toggle either way.
  const legendOpen = !(features.sidebar && features.filters);

  const shareButton = useMemo(() => (
    <button
      ref={shareToggleRef}
      type="button"
      className="mf-icon-button"
      aria-label={t('viewer.share')}
      aria-expanded={shareOpen}
      data-mf-share-toggle=""
      onClick={() => setShareOpen((open) => !open)}
    >
      <Icon name="share" />
    </button>
  ), [shareOpen, t]);
  // Memoised like the share button: the directory's props must not change before it hydrates.
  const { open: openDirections, close: closeDirections } = directions;
  const directionsButton = useMemo(
    () =>
      directionsOffered ? (
        <button
          ref={directionsToggleRef}
          type="button"
          className="mf-icon-button mf-directions-toggle"
          aria-label={t('viewer.directions')}
          title={t('viewer.directions')}
          aria-expanded={route.open}
          onClick={() => (route.open ? closeDirections() : openDirections())}
        >
          <Icon name="directions" />
        </button>
      ) : null,
    [directionsOffered, route.open, openDirections, closeDirections, t],
  );
  const directoryActions = useMemo(
    () => (
      <>
        {directionsButton}
        {shareButton}
      </>
    ),
    [directionsButton, shareButton],
  );
  const toggleGroup = useCallback((id: string) =>
    setActiveGroups((before) => {
      const next = new Set(before);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    }), []);
  const clearFilters = useCallback(() => {
    setQuery('');
    setActiveGroups(new Set());
  }, []);
  const pickFromDirectory = useCallback((id: string, opener: HTMLElement | null) => open(id, narrow ? listToggleRef.current : opener, true), [open, narrow]);

  const directory = (actions: ReactNode) => (
    <LazyDirectory
      title={map.title}
      total={shown.length}
      locations={doc.locations}
      order={directoryOrder}
      matching={matching}
      groups={doc.groups}
      groupColors={groupColors}
      accent={theme.accent}
      layerNames={layerNames}
      search={features.search}
      filters={features.filters}
      query={query}
      onQuery={setQuery}
      activeGroups={activeGroups}
      onToggleGroup={toggleGroup}
      onClear={clearFilters}
      selectedId={selectedId}
      onPick={pickFromDirectory}
      actions={actions}
    />
  );

  const hereLocation = directions.here ? byId.get(directions.here) ?? null : null;
  const hereAnchor = hereLocation && layer?.id === hereLocation.layer ? rendererRef.current?.anchorOf(hereLocation.id) ?? hereLocation.position : null;
  const hereMarker = hereLocation && hereAnchor ? { layer: hereLocation.layer, at: hereAnchor } : null;
  const directionsPanel = directionsCode ? (
    <directionsCode.DirectionsPanel
      locations={shown}
      byId={byId}
      groupsById={groupsById}
      layerNames={layerNames}
      from={route.from}
      to={route.to}
      stepFree={route.stepFree}
      step={route.step}
      here={hereLocation}
      result={routeResult}
      onChange={directions.change}
      onSwap={directions.swap}
      onStep={directions.setStep}
      onClose={() => {
        focusDirectionsToggle.current = true;
        setDirectionsFolded(false);
        directions.close();
      }}
      sheet={narrow ? { folded: directionsFolded, onToggle: () => setDirectionsFolded((folded) => !folded) } : undefined}
    />
  ) : null;
  // A location's details offer a route to it and from it.
  const popupDirections = directionsOffered
    ? {
        onDirectionsTo: (id: string) => {
          close();
          directions.open({ to: id });
        },
        onDirectionsFrom: directions.here
          ? undefined
          : (id: string) => {
              close();
              directions.open({ from: id });
            },
      }
    : {};

  const accentStyle = {
    '--mf-accent': theme.accent,
    '--mf-map-bg': theme.background,
  } as CSSProperties;

  return (
    <div
      ref={rootRef}
      className={`mfv${showSidebar || (route.open && directionsCode && !narrow) ? ' mfv--sidebar' : ''}${route.open && directionsCode && narrow ? ' mfv--directions' : ''}${fullscreen ? ' mfv--fullscreen' : ''}`}
      data-theme={theme.mode}
      style={accentStyle}
      onKeyDown={onKeyDown}
    >
      {showSidebar && !narrow ? (
        <aside id="mf-directory" className="mf-sidebar" aria-label={t('viewer.directory')} hidden={route.open && directionsCode !== null}>
          {directory(directoryActions)}
        </aside>
      ) : null}
      {route.open && directionsCode && !narrow ? <aside className="mf-sidebar mf-sidebar--directions">{directionsPanel}</aside> : null}
      <main className="mf-stage">
        {layer ? (
          <MapRenderer
            ref={rendererRef}
            document={doc}
            layer={layer}
            camera={camera}
            selectedId={selectedId}
            visibleIds={visibleIds}
            cooperative={cooperative}
            describe={describe}
            label={layerNames ? t('viewer.mapLayerLabel', { title: map.title, layer: layer.name }) : t('viewer.mapLabel', { title: map.title })}
            onSelect={(id, opener) => open(id, opener, false)}
            onHover={setHoveredId}
            onBackgroundClick={() => {
              if (selectedId) close();
              setShareOpen(false);
            }}
            onHint={setHint}
            onReady={onLayerReady}
            staticFirst={serverRendered}
          >
            {serverRendered && showSidebar && !narrow ? (
              // The server's page on a phone, before (or without) its script: the directory
              // follows the map below, and this bar leads there (hidden on wider screens).
              <div className="mf-topbar mf-topbar--jump" data-mf-ui="">
                <a className="mf-topbar__list" href="#mf-directory">
                  <Icon name="list" />
                  <span className="mf-topbar__text">
                    <strong>{map.title}</strong>
                    <span>{t('viewer.locationCount', { count: shown.length })}</span>
                  </span>
                </a>
              </div>
            ) : null}
            {narrow || !showSidebar ? (
              <div className="mf-topbar" data-mf-ui="">
                {showSidebar ? (
                  <button
                    ref={listToggleRef}
                    type="button"
                    className="mf-topbar__list"
                    aria-expanded={sheetOpen}
                    onClick={() => setSheetOpen(true)}
                  >
                    <Icon name={features.search ? 'search' : 'list'} />
                    <span className="mf-topbar__text">
                      <strong>{map.title}</strong>
                      <span>{t(features.search ? 'viewer.searchCount' : 'viewer.locationCount', { count: shown.length })}</span>
                    </span>
                  </button>
                ) : (
                  <p className="mf-topbar__title">{map.title}</p>
                )}
              </div>
            ) : null}

            {doc.layers.length > 1 ? (
              <div className="mf-layers" role="group" aria-label={t('viewer.layers')} data-mf-ui="">
                {doc.layers.map((candidate) => (
                  <button key={candidate.id} type="button" aria-pressed={candidate.id === layer.id} data-route={routeLayers.has(candidate.id) ? '' : undefined} aria-label={routeLayers.has(candidate.id) ? t('viewer.onRoute', { layer: candidate.name }) : undefined} onClick={() => switchLayer(candidate.id)}>
                    {candidate.name}
                  </button>
                ))}
              </div>
            ) : null}

            <div className="mf-controls" data-mf-ui="">
              {!showSidebar || narrow ? (
                <div className="mf-controls__group">
                  {directionsButton}
                  {shareButton}
                </div>
              ) : null}
              {features.zoomButtons ? (
                <div className="mf-controls__group" role="group" aria-label={t('viewer.zoom')}>
                  <button type="button" className="mf-icon-button" aria-label={t('viewer.zoomIn')} disabled={!zoomLimits.canIn} onClick={() => camera.zoomBy(1.6, undefined, undefined, true)}>
                    <Icon name="plus" />
                  </button>
                  <button type="button" className="mf-icon-button" aria-label={t('viewer.zoomOut')} disabled={!zoomLimits.canOut} onClick={() => camera.zoomBy(1 / 1.6, undefined, undefined, true)}>
                    <Icon name="minus" />
                  </button>
                  <button type="button" className="mf-icon-button" aria-label={t('viewer.resetView')} onClick={() => camera.reset()}>
                    <Icon name="reset" />
                  </button>
                </div>
              ) : null}
              {canFullscreen ? (
                <div className="mf-controls__group">
                  <button type="button" className="mf-icon-button" aria-label={t(fullscreen ? 'viewer.exitFullScreen' : 'viewer.fullScreen')} aria-pressed={fullscreen} onClick={toggleFullscreen}>
                    <Icon name={fullscreen ? 'shrink' : 'expand'} />
                  </button>
                </div>
              ) : null}
            </div>

            {directionsCode && directionsOffered ? (
              <directionsCode.DirectionsSync state={route} here={directions.here} deepLinks={deepLinks} isPlace={isPlace} onArrive={directions.arrive} onKioskIdle={directions.kioskIdle} />
            ) : null}
            {directionsCode && (shownRoute || (directions.here && route.open)) ? (
              <directionsCode.RouteOverlay
                camera={camera}
                route={shownRoute}
                layerId={layer.id}
                step={route.step}
                here={hereMarker}
                onFloor={onRouteFloor}
                insets={dir === 'rtl' ? (narrow ? RTL_NARROW_ROUTE_INSETS : RTL_WIDE_ROUTE_INSETS) : narrow ? NARROW_ROUTE_INSETS : WIDE_ROUTE_INSETS}
                ends={routeEnds}
              />
            ) : null}

            {shareOpen ? (
              <Suspense fallback={null}>
                <ShareMenu
                  mapId={map.id}
                  title={map.title}
                  publicUrl={publicUrl}
                  aspectRatio={width / height}
                  onCopied={setToast}
                  onClose={() => setShareOpen(false)}
                  route={shownRoute && route.from && route.to && !directions.here ? { from: route.from, to: route.to, stepFree: route.stepFree } : null}
                  picture={{ document: doc, layer, camera, selectedId, visibleIds, layerNames }}
                />
              </Suspense>
            ) : null}

            {map.test ? (
              <p className="mf-test-banner" role="note">
                <strong>{t('viewer.testMap')}</strong> {t('viewer.testMapNote')}
              </p>
            ) : null}

            <div className="mf-bottom" data-mf-ui="">
              {legendGroups.length > 0 ? (
                <LazyLegend groups={legendGroups} open={legendOpen} narrow={NARROW} serverRendered={serverRendered} />
              ) : (
                <span />
              )}
              <div className="mf-bottom__right">
                {features.minimap && !narrow ? (
                  <LazyMinimap camera={camera} layer={layer} width={width} height={height} background={theme.background} small={medium} />
                ) : null}
                <a className="mf-credit" href={publicUrl} target="_blank" rel="noopener noreferrer">
                  Mapfold
                </a>
              </div>
            </div>

            {hovered ? (
              <Suspense fallback={null}>
                <Tooltip camera={camera} location={hovered} anchor={rendererRef.current?.anchorOf(hovered.id) ?? null} offset={MARKER_HEIGHT[hovered.marker] + 2} />
              </Suspense>
            ) : null}

            {selected && !narrow ? (
              <Suspense fallback={null}>
                <Popup
                  location={selected}
                  groups={selected.groups.map((id) => groupsById.get(id)).filter((group) => group !== undefined)}
                  layerName={layerNames?.get(selected.layer) ?? null}
                  camera={camera}
                  anchor={rendererRef.current?.anchorOf(selected.id) ?? selected.position}
                  offset={MARKER_HEIGHT[selected.marker]}
                  sheet={false}
                  onClose={close}
                  {...popupDirections}
                />
              </Suspense>
            ) : null}

            <div className={`mf-hint${hint ? ' is-visible' : ''}`} aria-hidden="true">
              {hint === 'touch' ? t('viewer.hintTouch') : t('viewer.hintWheel', { key: mac ? '⌘' : t('viewer.ctrl') })}
            </div>
          </MapRenderer>
        ) : (
          <div className="mf-message">
            <p>{t('viewer.noLayers')}</p>
          </div>
        )}
      </main>

      {route.open && directionsCode && narrow ? <div className={`mf-directions-sheet${directionsFolded ? ' mf-directions-sheet--folded' : ''}`}>{directionsPanel}</div> : null}

      {selected && narrow ? (
        <Suspense fallback={null}>
          <Popup
            location={selected}
            groups={selected.groups.map((id) => groupsById.get(id)).filter((group) => group !== undefined)}
            layerName={layerNames?.get(selected.layer) ?? null}
            camera={camera}
            anchor={null}
            offset={0}
            sheet
            onClose={close}
            {...popupDirections}
          />
        </Suspense>
      ) : null}

      {showSidebar && narrow && sheetOpen ? (
        <div className="mf-sheet" role="dialog" aria-modal="true" aria-label={t('viewer.directory')}>
          <button type="button" className="mf-sheet__scrim" aria-label={t('viewer.closeDirectory')} tabIndex={-1} onClick={() => setSheetOpen(false)} />
          <div className="mf-sheet__panel" tabIndex={-1} ref={sheetRef}>
            {directory(
              <button
                type="button"
                className="mf-icon-button"
                aria-label={t('viewer.closeDirectory')}
                onClick={() => {
                  setSheetOpen(false);
                  listToggleRef.current?.focus();
                }}
              >
                <Icon name="close" />
              </button>,
            )}
          </div>
        </div>
      ) : null}

      <div className={`mf-toast${toast ? ' is-visible' : ''}`} role="status" aria-live="polite">
        {toast}
      </div>
    </div>
  );
}

